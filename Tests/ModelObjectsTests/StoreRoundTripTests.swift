import Foundation
import GRDB
import ModelObjects
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Every corpus store with a known version, read object by object through a context and inserted
/// in primary-key order into a new store of the same version with one save, gives back Core
/// Data's tables: the same rows with the same values, the same links in foreign keys and join
/// tables, the same `Z_PRIMARYKEY` counters. What the original's history explains and one save
/// cannot repeat (a row saved more than once, keys freed by deletions, files of external data
/// the corpus does not carry) is listed per store with its reason; anything else fails.
@Suite(Corpus.required)
struct StoreRoundTripTests {
    @Test(arguments: CorpusStores.known)
    func aStoreCopiedThroughAContextHasTheOriginalsTables(_ known: KnownStore) throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(known.model)).bundle)
        let version = try #require(bundle.version(named: known.version))
        let layout = StoreLayout(version)
        let hierarchy = EntityHierarchy(version)
        try withTemporaryDirectory { folder in
            var configuration = Configuration()
            configuration.readonly = true
            let original = try DatabaseQueue(path: try copyStore(Corpus.path(known.store), into: folder), configuration: configuration)
            defer { try? original.close() }
            let copyPath = folder.appendingPathComponent("copy.sqlite").path
            try StoreCreator.create(at: copyPath, version: version)
            let copy = try DatabasePool(path: copyPath, configuration: CoreDataFunctions.registering(in: Configuration()))
            defer { try? copy.close() }
            let model = ManagedObjectModel(version)
            try Self.copyObjects(from: original, to: copy, model: model, layout: layout)

            var comparison = TableComparison(original: original, copy: copy, layout: layout, hierarchy: hierarchy)
            try comparison.compareKeys()
            try comparison.compareTables()
            try comparison.compareJoinTables()
            for problem in comparison.unexplained { Issue.record("\(known.testDescription): \(problem)") }
            print("round trip \(known.testDescription): \(comparison.explained.sorted().joined(separator: "; ").nonEmpty ?? "identical")")
            // The copy opens with the version that made the original, as the original does.
            var asMade = bundle
            asMade.currentVersionName = version.name
            #expect(StoreCheck.run(storeAt: copyPath, bundle: asMade).error == nil)
        }
    }

    /// Reads every object of `original` and inserts its copy into `copy`, in primary-key order
    /// within each hierarchy (so that keys are handed out as the original's were), linked as
    /// the originals are, then saves once.
    static func copyObjects(from original: DatabaseQueue, to copy: DatabasePool, model: ManagedObjectModel, layout: StoreLayout) throws {
        let reader = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = PersistentStoreCoordinator(model: model, database: original)
        let writer = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = PersistentStoreCoordinator(model: model, database: copy)
        try reader.performAndWait {
            try writer.performAndWait {
                var sources = [ManagedObject]()
                for entity in layout.entities where entity.superNumber == 0 {
                    let request = FetchRequest<ManagedObject>(entityName: entity.name)
                    sources += try reader.fetch(request)
                }
                var copies = [ObjectIdentifier: ManagedObject]()
                for source in sources {
                    let made = ManagedObject(entity: source.entity, insertInto: writer)
                    for attribute in source.entity.attributes where !attribute.isTransient && !attribute.isDerived {
                        made.setValue(source.storedValue(forKey: attribute.name), forKey: attribute.name)
                    }
                    copies[ObjectIdentifier(source)] = made
                }
                func copied(_ object: Any?) -> ManagedObject? { (object as? ManagedObject).flatMap { copies[ObjectIdentifier($0)] } }
                for source in sources {
                    guard let made = copies[ObjectIdentifier(source)] else { continue }
                    for relationship in source.entity.relationships where !relationship.isTransient {
                        let value = source.value(forKey: relationship.name)
                        if !relationship.isToMany {
                            made.setValue(copied(value), forKey: relationship.name)
                        } else if let ordered = value as? NSOrderedSet {
                            made.setValue(NSOrderedSet(array: ordered.array.compactMap(copied)), forKey: relationship.name)
                        } else if let set = value as? NSSet {
                            made.setValue(NSSet(array: set.allObjects.compactMap(copied)), forKey: relationship.name)
                        }
                    }
                }
                try writer.save()
            }
        }
    }
}

/// The comparison of an original store's object tables with its copy's, through the map of
/// each table's original keys to the copy's.
struct TableComparison {
    let original: DatabaseQueue
    let copy: DatabasePool
    let layout: StoreLayout
    let hierarchy: EntityHierarchy
    /// Each table's keys: original to copy.
    var keys: [String: [Int64: Int64]] = [:]
    var explained = Set<String>()
    var unexplained: [String] = []

    init(original: DatabaseQueue, copy: DatabasePool, layout: StoreLayout, hierarchy: EntityHierarchy) {
        self.original = original
        self.copy = copy
        self.layout = layout
        self.hierarchy = hierarchy
    }

    private var tables: [String] { Array(Set(layout.entities.map(\.table))).sorted() }

    /// Keys are handed out in order, so the n-th original row of a table is the copy's n-th; a
    /// table whose keys have gaps (rows deleted since) is renumbered, and its counter with it.
    mutating func compareKeys() throws {
        for table in tables {
            let old = try original.read { try Int64.fetchAll($0, sql: "SELECT Z_PK FROM \(table) ORDER BY Z_PK") }
            let new = try copy.read { try Int64.fetchAll($0, sql: "SELECT Z_PK FROM \(table) ORDER BY Z_PK") }
            guard old.count == new.count else {
                unexplained.append("\(table) has \(old.count) rows, its copy \(new.count)")
                continue
            }
            keys[table] = Dictionary(uniqueKeysWithValues: zip(old, new))
            if old != new { explained.insert("\(table): keys freed by deletions renumbered") }
        }
        let counters = "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        let old = try original.read { try Row.fetchAll($0, sql: counters) }.map { ($0[0] as String, $0[1] as Int64) }
        let new = Dictionary(try copy.read { try Row.fetchAll($0, sql: counters) }.map { ($0[0] as String, $0[1] as Int64) }, uniquingKeysWith: { a, _ in a })
        for (name, maximum) in old where new[name] != maximum {
            guard let entity = layout.entity(named: name) else { continue }
            if let copied = new[name], copied < maximum, (keys[entity.table]?.keys.max() ?? 0) <= maximum, entity.superNumber == 0 {
                explained.insert("Z_PRIMARYKEY \(name): Z_MAX \(maximum) counts keys handed out before deletions, the copy \(copied)")
            } else {
                unexplained.append("Z_PRIMARYKEY \(name): Z_MAX \(maximum), the copy's \(new[name].map(String.init) ?? "none")")
            }
        }
    }

    /// Every column of every object row, foreign keys through the key maps.
    mutating func compareTables() throws {
        var foreignKeys = [String: [String: String]]()
        var orderColumns = Set<String>()
        /// The columns of each entity's own properties, by entity number.
        var ownColumns = [Int: Set<String>]()
        for entity in layout.entities {
            ownColumns[entity.number] = Set(entity.columns.values).union(entity.entityColumns.values).union(entity.orderColumns.values)
            guard let model = hierarchy.entity(named: entity.name) else { continue }
            for relationship in hierarchy.relationships(of: model) where !relationship.isToMany {
                if let column = entity.columns[relationship.name], let target = layout.entity(named: relationship.destinationEntityName) {
                    foreignKeys[entity.table, default: [:]][column] = target.table
                }
            }
            orderColumns.formUnion(entity.orderColumns.values)
        }
        for hidden in layout.hiddenInverses {
            if let source = layout.entity(named: hidden.entity) { foreignKeys[hidden.table, default: [:]][hidden.column] = source.table }
        }
        let external = Set(layout.entities.flatMap { entity in
            hierarchy.entity(named: entity.name).map { hierarchy.attributes(of: $0).filter(\.allowsExternalBinaryDataStorage).compactMap { entity.columns[$0.name] } } ?? []
        })
        for table in tables {
            guard let map = keys[table] else { continue }
            let old = try original.read { try Row.fetchAll($0, sql: "SELECT * FROM \(table) ORDER BY Z_PK") }
            let new = Dictionary(try copy.read { try Row.fetchAll($0, sql: "SELECT * FROM \(table)") }.map { ($0["Z_PK"] as Int64, $0) }, uniquingKeysWith: { a, _ in a })
            for row in old {
                guard let key = row["Z_PK"] as Int64?, let copied = map[key].flatMap({ new[$0] }) else { continue }
                for column in row.columnNames where column != "Z_PK" {
                    let before = row[column] as DatabaseValue
                    let after = copied.hasColumn(column) ? copied[column] as DatabaseValue : .null
                    if column == "Z_OPT" {
                        if before != after { explained.insert("\(table).Z_OPT: rows saved more than once (the copy's rows are saved once)") }
                        continue
                    }
                    if let target = foreignKeys[table]?[column] {
                        let mapped = (before.storage.int64).flatMap { keys[target]?[$0] }
                        if mapped != after.storage.int64 { unexplained.append("\(table).\(column) of row \(key): \(before) links to another row than \(after)") }
                        continue
                    }
                    if before == after { continue }
                    if orderColumns.contains(column) {
                        explained.insert("\(table).\(column): order values renumbered 2048, 3072, … (the order itself is compared through the relationships)")
                    } else if external.contains(column), case .blob(let data) = before.storage, data.first == 2, after.isNull {
                        explained.insert("\(table).\(column): files of external data the corpus does not carry")
                    } else if !copied.hasColumn(column), before.isNull {
                        continue
                    } else if after.isNull, let number = row["Z_ENT"] as Int?, ownColumns[number]?.contains(column) == false {
                        explained.insert("\(table).\(column): a value in rows of entities without that property (a migration added the column to the whole table with its default)")
                    } else {
                        unexplained.append("\(table).\(column) of row \(key): \(before), the copy \(after)")
                    }
                }
            }
        }
        try compareOrders()
    }

    /// Ordered to-manys kept through their members' order columns list the same members in the same order.
    private mutating func compareOrders() throws {
        for entity in layout.entities {
            for (relationship, orderColumn) in entity.orderColumns {
                guard let column = entity.columns[relationship], let target = targetTable(entity, relationship) else { continue }
                let sql = "SELECT \(column), Z_PK FROM \(entity.table) WHERE \(column) IS NOT NULL AND Z_ENT = \(entity.number) ORDER BY \(column), \(orderColumn), Z_PK"
                let old = try original.read { try Row.fetchAll($0, sql: sql) }.map { (keys[target]?[$0[0] as Int64] ?? -1, keys[entity.table]?[$0[1] as Int64] ?? -1) }
                let new = try copy.read { try Row.fetchAll($0, sql: sql) }.map { ($0[0] as Int64, $0[1] as Int64) }
                if old.map(\.0) != new.map(\.0) || old.map(\.1) != new.map(\.1) {
                    unexplained.append("\(entity.name).\(relationship): the ordered list's members or order differ")
                }
            }
        }
    }

    private func targetTable(_ entity: EntityLayout, _ relationship: String) -> String? {
        guard let model = hierarchy.entity(named: entity.name),
            let found = hierarchy.relationships(of: model).first(where: { $0.name == relationship })
        else { return nil }
        return layout.entity(named: found.destinationEntityName)?.table
    }

    /// Many-to-many links, both keys through the maps.
    mutating func compareJoinTables() throws {
        for join in layout.joinTables {
            guard let source = layout.entity(named: join.entity)?.table, let target = layout.entity(named: join.inverseEntity)?.table else { continue }
            let sql = "SELECT \(join.sourceColumn), \(join.destinationColumn) FROM \(join.table.name)"
            let old = Set(try original.read { try Row.fetchAll($0, sql: sql) }.map { "\(keys[source]?[$0[0] as Int64] ?? -1)-\(keys[target]?[$0[1] as Int64] ?? -1)" })
            let new = Set(try copy.read { try Row.fetchAll($0, sql: sql) }.map { "\($0[0] as Int64)-\($0[1] as Int64)" })
            if old != new { unexplained.append("\(join.table.name): \(old.subtracting(new).count) links missing, \(new.subtracting(old).count) extra") }
            // An ordered side lists the same members in the same order (its values may be renumbered).
            for (members, ownerColumn, ownerTable, memberTable) in [
                (join.destinationColumn, join.sourceColumn, source, target), (join.sourceColumn, join.destinationColumn, target, source),
            ] {
                let order = "Z_FOK_" + members.dropFirst(2)
                guard join.table.columns.contains(where: { $0.name == order }) else { continue }
                let sql = "SELECT \(ownerColumn), \(members) FROM \(join.table.name) ORDER BY \(ownerColumn), \(order), \(members)"
                let before = try original.read { try Row.fetchAll($0, sql: sql) }
                    .map { "\(keys[ownerTable]?[$0[0] as Int64] ?? -1)-\(keys[memberTable]?[$0[1] as Int64] ?? -1)" }
                let byOwner = Dictionary(grouping: before, by: { $0.split(separator: "-")[0] })
                let after = Dictionary(grouping: try copy.read { try Row.fetchAll($0, sql: sql) }.map { "\($0[0] as Int64)-\($0[1] as Int64)" }, by: { $0.split(separator: "-")[0] })
                if byOwner != after { unexplained.append("\(join.table.name).\(order): the ordered lists differ") }
                let values = "SELECT \(order) FROM \(join.table.name) ORDER BY \(ownerColumn), \(members)"
                if try original.read({ try Int64?.fetchAll($0, sql: values) }) != copy.read({ try Int64?.fetchAll($0, sql: values) }) {
                    explained.insert("\(join.table.name).\(order): order values renumbered 2048, 3072, …")
                }
            }
        }
    }
}

extension DatabaseValue.Storage {
    var int64: Int64? {
        if case .int64(let value) = self { return value }
        return nil
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
