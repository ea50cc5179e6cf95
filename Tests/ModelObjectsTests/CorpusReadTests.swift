import Foundation
import GRDB
import ModelObjects
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Every corpus store whose model version is known reads object for object through a context:
/// each entity's objects, their attribute values and their links equal what the rows Core Data
/// wrote hold (read here with plain SQL on the layout FORMATS §6 describes).
@Suite(Corpus.required)
struct CorpusReadTests {
    @Test(arguments: CorpusStores.known)
    func everyObjectReadsAsItsRowsSay(_ known: KnownStore) throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(known.model)).bundle)
        let version = try #require(bundle.version(named: known.version))
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.path(known.store), into: folder)
            var configuration = Configuration()
            configuration.readonly = true
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let layout = StoreLayout(version)
            let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = PersistentStoreCoordinator(model: ManagedObjectModel(version), database: database)
            try context.performAndWait {
                for entity in layout.entities {
                    let request = FetchRequest<ManagedObject>(entityName: entity.name)
                    request.includesSubentities = false
                    let objects = try context.fetch(request)
                    let rows = try database.read { db in
                        try Row.fetchAll(db, sql: "SELECT * FROM \(entity.table) WHERE Z_ENT = ? ORDER BY Z_PK", arguments: [entity.number])
                    }
                    #expect(objects.map { $0.objectID.primaryKey } == rows.map { $0["Z_PK"] as Int64? }, "\(entity.name)")
                    #expect(objects.allSatisfy { $0.entity.name == entity.name })
                    for (object, row) in zip(objects, rows) {
                        try check(object, row, entity, version, database)
                    }
                }
            }
            try database.close()
        }
    }

    /// Attributes as their columns hold them, to-ones as their keys, to-manys as many as the rows link.
    private func check(_ object: ManagedObject, _ row: Row, _ entity: EntityLayout, _ version: ModelVersion, _ database: DatabaseQueue) throws {
        let hierarchy = EntityHierarchy(version)
        let model = try #require(hierarchy.entity(named: entity.name))
        for attribute in hierarchy.attributes(of: model) {
            guard let column = entity.columns[attribute.name] else { continue }
            var raw = row[column] as DatabaseValue
            let value = object.storedValue(forKey: attribute.name)
            if attribute.allowsExternalBinaryDataStorage, case .blob(let bytes) = raw.storage {
                // Core Data's marker: 0x01 and the bytes, or 0x02 and a file of _EXTERNAL_DATA,
                // which the corpus does not carry (so no value).
                #expect([1, 2].contains(bytes.first), "\(entity.name).\(attribute.name) has no external-storage marker")
                raw = bytes.first == 1 ? Data(bytes.dropFirst()).databaseValue : .null
            }
            #expect(raw.isNull == (value == nil), "\(entity.name).\(attribute.name) of \(object.objectID)")
            if let value, !raw.isNull {
                let written = try StoredValue.databaseValue(object: value, as: attribute.type)
                #expect(written == raw || (written.storage.double != nil && written.storage.double == raw.storage.double),
                    "\(entity.name).\(attribute.name): \(written) read from \(raw)")
            }
        }
        for relationship in hierarchy.relationships(of: model) {
            if relationship.isToMany {
                let count = (object.value(forKey: relationship.name) as? NSSet)?.count
                    ?? (object.value(forKey: relationship.name) as? NSOrderedSet)?.count ?? -1
                let expected = try database.read { db -> Int in
                    guard let storage = RelationshipStorage(relationship, of: entity.name, entities: hierarchy, layout: StoreLayout(version)) else { return 0 }
                    let sql: String = switch storage {
                    case .inverseForeignKey(let table, let column, _, _): "SELECT COUNT(*) FROM \(table) WHERE \(column) = ?"
                    case .joinTable(let table, let own, _): "SELECT COUNT(*) FROM \(table) WHERE \(own) = ?"
                    case .hiddenInverse(let table, let column): "SELECT COUNT(*) FROM \(table) WHERE \(column) = ?"
                    case .foreignKey: "SELECT 0 WHERE ? IS NULL"
                    }
                    return try Int.fetchOne(db, sql: sql, arguments: [row["Z_PK"] as Int64]) ?? 0
                }
                #expect(count == expected, "\(entity.name).\(relationship.name) of \(object.objectID)")
            } else if let column = entity.columns[relationship.name] {
                let target = object.value(forKey: relationship.name) as? ManagedObject
                #expect(target?.objectID.primaryKey == row[column] as Int64?, "\(entity.name).\(relationship.name)")
            }
        }
    }
}

extension DatabaseValue.Storage {
    /// The value as a double when it is a number.
    var double: Double? {
        switch self {
        case .int64(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
