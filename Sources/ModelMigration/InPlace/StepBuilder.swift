import Foundation
import GRDB
import ModelArchive
import ModelSchema
import ModelStore

/// Turns one inferred mapping into the SQL that migrates a store in place, reading the store's
/// actual schema and counting, before anything runs, the rows the statements touch and the
/// values they drop.
///
/// A table whose rows keep their entity numbers and columns is changed in place (`RENAME
/// COLUMN`, `ADD COLUMN`, `UPDATE` for defaults), so a purely additive change never rewrites it.
/// A table whose rows, columns and entity numbers do not change is not touched at all. Any other
/// table is rebuilt once: the old one is renamed aside, the destination table is created with
/// Core Data's DDL and filled with one `INSERT … SELECT`, and the old one is dropped. Join
/// tables follow their relationships; an existing table whose name a new table takes is moved
/// aside first, so no statement creates a table that exists. Values are ``SQLValue``s, rendered
/// to SQL once. Indexes, `Z_PRIMARYKEY`, metadata and model cache end as `store create` would
/// make them for the destination.
struct StepBuilder {
    let db: Database
    let mapping: InferredMapping

    let sourceLayout: StoreLayout
    let destinationLayout: StoreLayout
    let sourceEntities: EntityHierarchy
    let destinationEntities: EntityHierarchy
    let actual: StoreSchema

    var step: MigrationStep
    var renamePhase: [MigrationStatement] = []
    var buildPhase: [MigrationStatement] = []
    var dropPhase: [MigrationStatement] = []
    /// Source tables renamed aside: original name → temporary name.
    var asideNames: [String: String] = [:]
    /// Source join tables whose rows went somewhere.
    var consumedJoinTables: Set<String> = []
    /// Whether to find the rows carrying another table's entity number even when no number
    /// changes (a plan reports them); otherwise they are looked for only where they would
    /// otherwise lose their entity, so an additive step still reads no row.
    let reportsForeignEntityRows: Bool

    /// Prepares the step from `source` (laid out as `sourceLayout`) to `destination` (as
    /// `destinationLayout`): the caller lays each version out once for the whole migration.
    init(
        db: Database, source: ModelVersion, destination: ModelVersion, layouts: (source: StoreLayout, destination: StoreLayout),
        mapping: InferredMapping, reportsForeignEntityRows: Bool = false
    ) throws {
        self.db = db
        self.reportsForeignEntityRows = reportsForeignEntityRows
        self.mapping = mapping
        sourceLayout = layouts.source
        destinationLayout = layouts.destination
        sourceEntities = EntityHierarchy(source)
        destinationEntities = EntityHierarchy(destination)
        actual = try StoreSchema.read(from: db)
        step = MigrationStep(source: source.name, destination: destination.name, mapping: mapping)
    }

    /// Plans the whole step: statements in the order they run, with the counts.
    mutating func build() throws {
        let numbers = entityNumberMap()
        let keepsEveryNumber = numbers.count == sourceLayout.entities.count && numbers.allSatisfy { $0.key == $0.value }
        if reportsForeignEntityRows || !keepsEveryNumber {
            step.foreignEntityRows = try ForeignEntityRows.find(in: db, layout: sourceLayout)
        }
        let plans = try destinationTablePlans()
        for plan in plans where plan.rewrite {
            if let table = plan.sourceTable { setAside(table) }
        }
        for table in Set(sourceLayout.entities.map(\.table)).sorted() where !plans.contains(where: { $0.sourceTable == table }) {
            try countRemovedTable(table)
            setAside(table)
        }
        let keptJoins = keptJoinTables()
        for join in destinationLayout.joinTables where !keptJoins.contains(join.table.name) {
            setAside(join.table.name)
        }
        for plan in plans {
            consumedJoinTables.formUnion(plan.values.values.flatMap(\.linkTables))
            try apply(plan)
        }
        try buildJoinTables(kept: keptJoins)
        try countCollapsedLinks()
        for join in sourceLayout.joinTables {
            guard let name = actualJoinTableName(join), !consumedJoinTables.contains(name) else { continue }
            let rows = try count("SELECT COUNT(*) FROM \(quoted(name))")
            step.dropped.append(DroppedValues(entity: join.entity, property: join.relationship, count: rows))
            if asideNames[name] == nil {
                dropPhase.append(MigrationStatement(sql: "DROP TABLE \(quoted(name))", purpose: "remove relationship '\(join.relationship)' of '\(join.entity)'"))
            }
        }
        for (original, aside) in asideNames.sorted(by: { $0.key < $1.key }) {
            dropPhase.append(MigrationStatement(sql: "DROP TABLE \(quoted(aside))", purpose: "drop the old \(original)"))
        }
        let indexes = indexStatements(plans)
        let triggers = triggerStatements()
        step.statements = triggers.drops + renamePhase + buildPhase + dropPhase + indexes + triggers.creates + bookkeepingStatements()
        step.writtenTables = Self.unique(step.rewrittenTables + step.writtenTables)
    }

    // MARK: Entity tables

    /// How one destination entity table is made.
    struct TablePlan {
        var table: StoreTable
        var sourceTable: String?
        var rewrite: Bool
        /// Destination column → its value over the source table's row.
        var values: [String: SQLValue]
        /// Source entity numbers whose rows the table keeps, those of rows that carry another
        /// table's entity number (``ForeignEntityRows``) included.
        var sourceNumbers: [Int]
        /// Source entity number → destination entity number, for every number the table's rows carry.
        var entityNumbers: [Int: Int]
    }

    func destinationTablePlans() throws -> [TablePlan] {
        var plans = [TablePlan]()
        for table in destinationLayout.schema.tables where destinationLayout.entities.contains(where: { $0.table == table.name }) {
            let members = destinationLayout.entities.filter { $0.table == table.name }
            let pairs = members.compactMap { member -> (EntityLayout, EntityLayout)? in
                guard let name = mapping.mapping(forDestination: member.name)?.source, let old = sourceLayout.entity(named: name) else { return nil }
                return (member, old)
            }
            guard let sourceTable = pairs.first?.1.table else {
                plans.append(TablePlan(table: table, sourceTable: nil, rewrite: false, values: [:], sourceNumbers: [], entityNumbers: [:]))
                continue
            }
            guard pairs.allSatisfy({ $0.1.table == sourceTable }) else {
                throw MigrationError.unsupported("'\(table.name)' would take rows from several tables")
            }
            guard actual.table(named: sourceTable) != nil else {
                throw MigrationError.schemaMismatch("the store has no table \(sourceTable)")
            }
            var numbers = [Int: Int]()
            for (new, old) in pairs { numbers[old.number] = new.number }
            // A row carrying another table's entity number keeps naming that entity (or keeps
            // its number when the entity is gone or never was).
            let everyNumber = entityNumberMap()
            let foreign = step.foreignEntityRows.filter { $0.table == sourceTable }.map(\.entityNumber)
            for number in foreign { numbers[number] = everyNumber[number] ?? number }
            var values = [String: SQLValue]()
            for column in table.columns.dropFirst(3) {
                values[column.name] = try value(of: column.name, members: members, pairs: pairs, sourceTable: sourceTable)
            }
            let sourceMembers = sourceLayout.entities.filter { $0.table == sourceTable }
            let keepsNumbers = numbers.allSatisfy { $0.key == $0.value } && sourceMembers.count == pairs.count
            let consumed = Set(values.values.flatMap(\.readColumns))
            let sourceColumns = actual.table(named: sourceTable)!.columns.dropFirst(3).map(\.name)
            let inPlace =
                sourceTable == table.name && keepsNumbers && sourceColumns.allSatisfy(consumed.contains)
                && values.allSatisfy { column, value in isInPlace(column: column, value: value, table: table, sourceTable: sourceTable) }
            plans.append(
                TablePlan(
                    table: table, sourceTable: sourceTable, rewrite: !inPlace, values: values,
                    sourceNumbers: (pairs.map(\.1.number) + foreign).sorted(), entityNumbers: numbers))
        }
        return plans
    }

    /// Whether a column can get its value without rewriting the table: kept or renamed as is,
    /// new, or filled by an `UPDATE` of itself.
    func isInPlace(column: String, value: SQLValue, table: StoreTable, sourceTable: String) -> Bool {
        let existing = actual.table(named: sourceTable)!
        switch value {
        case .null, .literal:
            return existing.column(named: column) == nil
        case .column(let name):
            guard let old = existing.column(named: name) else { return false }
            return old.type == table.column(named: column)?.type && (name == column || existing.column(named: column) == nil)
        case .coalesce(let name, _):
            return name == column && existing.column(named: column) != nil
        default:
            return false
        }
    }

    mutating func apply(_ plan: TablePlan) throws {
        guard let sourceTable = plan.sourceTable else {
            buildPhase.append(MigrationStatement(sql: plan.table.sql, purpose: "create \(plan.table.name)"))
            return
        }
        let rows = try countTable(plan, sourceTable: sourceTable)
        let keepsAllRows = sourceLayout.entities.filter { $0.table == sourceTable }.allSatisfy { plan.sourceNumbers.contains($0.number) }
        if plan.rewrite {
            let from = asideNames[sourceTable] ?? sourceTable
            step.rowsTouched += rows
            step.rewrittenTables.append(plan.table.name)
            let columns = plan.table.columns.map(\.name)
            let entity = SQLValue.entityNumber("Z_ENT", mappedBy: plan.entityNumbers)
            let expressions = [.column("Z_PK"), entity, .column("Z_OPT")] + columns.dropFirst(3).map { plan.values[$0] ?? .null }
            buildPhase.append(MigrationStatement(sql: plan.table.sql, purpose: "create \(plan.table.name) as the destination defines it"))
            buildPhase.append(
                MigrationStatement(
                    sql: "INSERT INTO \(plan.table.name) (\(columns.joined(separator: ", "))) SELECT \(expressions.map(render).joined(separator: ", ")) FROM \(quoted(from)) AS s\(keepsAllRows ? "" : " WHERE Z_ENT IN (\(list(plan.sourceNumbers)))")",
                    purpose: "copy \(rows) rows into \(plan.table.name)"))
            return
        }
        let existing = actual.table(named: sourceTable)!
        for column in plan.table.columns.dropFirst(3) {
            let value = plan.values[column.name] ?? .null
            if case .column(let old) = value, old != column.name {
                buildPhase.append(
                    MigrationStatement(sql: "ALTER TABLE \(plan.table.name) RENAME COLUMN \(old) TO \(column.name)", purpose: "rename \(old)"))
            } else if existing.column(named: column.name) == nil {
                buildPhase.append(
                    MigrationStatement(sql: "ALTER TABLE \(plan.table.name) ADD COLUMN \(column.name) \(column.type)", purpose: "add \(column.name)"))
            }
        }
        for column in plan.table.columns.dropFirst(3) {
            // A default fills every row of a new column, or the empty values of a kept one.
            let (value, condition): (StoredDefault, String)
            switch plan.values[column.name] {
            case .literal(let constant)?: (value, condition) = (constant, "")
            case .coalesce(_, let fallback)?: (value, condition) = (fallback, " WHERE \(column.name) IS NULL")
            default: continue
            }
            let rows = try count("SELECT COUNT(*) FROM \(plan.table.name)\(condition)")
            guard rows > 0 else { continue }
            step.rowsTouched += rows
            step.writtenTables.append(plan.table.name)
            buildPhase.append(
                MigrationStatement(sql: "UPDATE \(plan.table.name) SET \(column.name) = \(value.sql)\(condition)", purpose: "set \(column.name) in \(rows) rows"))
        }
    }

    // MARK: Helpers

    mutating func setAside(_ table: String) {
        guard asideNames[table] == nil, actual.table(named: table) != nil else { return }
        let aside = "Z_MODELC_OLD_\(table)"
        asideNames[table] = aside
        renamePhase.append(MigrationStatement(sql: "ALTER TABLE \(quoted(table)) RENAME TO \(aside)", purpose: "set \(table) aside"))
    }

    func entityNumberMap() -> [Int: Int] {
        var result = [Int: Int]()
        for entity in mapping.entities {
            guard let from = entity.source.flatMap({ sourceLayout.entity(named: $0) }),
                let to = entity.destination.flatMap({ destinationLayout.entity(named: $0) })
            else { continue }
            result[from.number] = to.number
        }
        return result
    }

    func sourceName(of property: String, in destinationEntity: String) -> String? {
        mapping.mapping(forDestination: destinationEntity)?.properties.first { $0.destination == property }?.source
    }

    func sourceAttribute(_ name: String, of entity: String) -> Attribute? {
        sourceEntities.entity(named: entity).flatMap { sourceEntities.attributes(of: $0).first { $0.name == name } }
    }

    func sourceRelationship(_ name: String, of entity: String) -> Relationship? {
        sourceEntities.entity(named: entity).flatMap { sourceEntities.relationships(of: $0).first { $0.name == name } }
    }

    func sourceDeclaringEntity(_ relationship: String, of entity: String) -> String? {
        sourceEntities.declaringEntity(ofRelationship: relationship, from: entity)?.name
    }

    func isKind(source name: String, of ancestor: String) -> Bool {
        sourceEntities.isKind(name, of: ancestor)
    }

    /// `names` without repeats, in their first order.
    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    func count(_ sql: String) throws -> Int {
        try Int.fetchOne(db, sql: sql) ?? 0
    }

    func list(_ numbers: [Int]) -> String {
        numbers.isEmpty ? "NULL" : numbers.map(String.init).joined(separator: ", ")
    }

    func quoted(_ name: String) -> String { name.quotedDatabaseIdentifier }

    /// A value as SQL, naming each source table as it is when the statement runs.
    func render(_ value: SQLValue) -> String {
        value.sql { (asideNames[$0] ?? $0).quotedDatabaseIdentifier }
    }
}
