/// One way a store's schema differs from the schema Core Data creates for a model version.
public enum SchemaDifference: Sendable, Hashable, CustomStringConvertible {
    case missingTable(String)
    case extraTable(String)
    /// A table with the expected columns under another name: a many-to-many join table named
    /// after the other side, which Core Data's hash order may choose.
    case tableNamedDifferently(expected: String, actual: String)
    /// Same columns, not in the same order or not with the same declared types.
    case columnsDiffer(table: String, expected: [String], actual: [String])
    case missingColumn(table: String, column: String)
    case extraColumn(table: String, column: String)
    case primaryKeyDiffers(table: String, expected: [String], actual: [String])
    case missingIndex(String)
    case extraIndex(String)
    case indexDiffers(name: String, expected: String, actual: String)
    /// A derived attribute's trigger Core Data creates is not there: the store opens, but the
    /// attribute is no longer kept up to date.
    case missingTrigger(String)
    case extraTrigger(String)
    case triggerDiffers(name: String, expected: String, actual: String)
    case entityRowsDiffer(expected: [String], actual: [String])
    /// Same entity numbers and parents under other names: an entity renamed by a migration.
    case entityNamesDiffer(expected: [String], actual: [String])

    public var description: String {
        switch self {
        case .missingTable(let table): "missing table \(table)"
        case .extraTable(let table): "extra table \(table)"
        case .tableNamedDifferently(let expected, let actual): "table \(expected) is named \(actual)"
        case .columnsDiffer(let table, let expected, let actual):
            "columns of \(table) differ: expected \(expected.joined(separator: ", ")); found \(actual.joined(separator: ", "))"
        case .missingColumn(let table, let column): "missing column \(table).\(column)"
        case .extraColumn(let table, let column): "extra column \(table).\(column)"
        case .primaryKeyDiffers(let table, let expected, let actual):
            "primary key of \(table) differs: expected (\(expected.joined(separator: ", "))); found (\(actual.joined(separator: ", ")))"
        case .missingIndex(let name): "missing index \(name)"
        case .extraIndex(let name): "extra index \(name)"
        case .indexDiffers(let name, let expected, let actual): "index \(name) differs: expected '\(expected)'; found '\(actual)'"
        case .missingTrigger(let name): "missing trigger \(name)"
        case .extraTrigger(let name): "extra trigger \(name)"
        case .triggerDiffers(let name, let expected, let actual): "trigger \(name) differs: expected '\(expected)'; found '\(actual)'"
        case .entityRowsDiffer(let expected, let actual):
            "Z_PRIMARYKEY differs: expected \(expected.joined(separator: " ")); found \(actual.joined(separator: " "))"
        case .entityNamesDiffer(let expected, let actual):
            "entity names in Z_PRIMARYKEY differ: expected \(expected.joined(separator: " ")); found \(actual.joined(separator: " "))"
        }
    }

    /// Whether a store with this difference can still be read and written by Core Data with the
    /// expected version: missing tables or columns, another primary key and other entity numbers
    /// break it; extra ones, column order (of the primary key too: Wire 2.101's join table,
    /// renamed in place, keeps its old key order and opens), indexes and entity names (Core Data
    /// goes by number) do not.
    public var isCompatible: Bool {
        switch self {
        case .extraTable, .extraColumn, .extraIndex, .indexDiffers, .columnsDiffer, .missingIndex, .entityNamesDiffer,
            .tableNamedDifferently, .missingTrigger, .extraTrigger, .triggerDiffers:
            true
        case .primaryKeyDiffers(_, let expected, let actual): Set(expected) == Set(actual)
        case .missingTable, .missingColumn, .entityRowsDiffer: false
        }
    }
}

extension StoreSchema {
    /// How `actual` differs from this (expected) schema; empty when they are the same. Core
    /// Data's persistent history tables are not the model's: a store that has them compares on
    /// its model part.
    public func differences(from actual: StoreSchema) -> [SchemaDifference] {
        if !PersistentHistoryLayout.isPresent(in: self) && PersistentHistoryLayout.isPresent(in: actual) {
            return differences(from: PersistentHistoryLayout.removing(from: actual))
        }
        var result = [SchemaDifference]()
        let actualTables = Dictionary(actual.tables.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let expectedNames = Set(tables.map(\.name))
        for table in tables {
            guard let found = actualTables[table.name] else {
                result.append(.missingTable(table.name))
                continue
            }
            result += Self.columnDifferences(table, found)
        }
        for table in actual.tables where !expectedNames.contains(table.name) {
            result.append(.extraTable(table.name))
        }
        result = Self.pairRenamedTables(result, expected: self, actual: actual)
        result += Self.differences(indexes, actual.indexes, missing: SchemaDifference.missingIndex, extra: SchemaDifference.extraIndex) {
            .indexDiffers(name: $0, expected: $1, actual: $2)
        }
        result += Self.differences(triggers, actual.triggers, missing: SchemaDifference.missingTrigger, extra: SchemaDifference.extraTrigger) {
            .triggerDiffers(name: $0, expected: $1, actual: $2)
        }
        if entities != actual.entities {
            let describe = { (rows: [StoreEntityRow]) in rows.map { "(\($0.number),\($0.name),\($0.superNumber))" } }
            let numbers = { (rows: [StoreEntityRow]) in rows.map { [$0.number, $0.superNumber] } }
            result.append(
                numbers(entities) == numbers(actual.entities)
                    ? .entityNamesDiffer(expected: describe(entities), actual: describe(actual.entities))
                    : .entityRowsDiffer(expected: describe(entities), actual: describe(actual.entities)))
        }
        return result
    }

    /// How the indexes (or triggers) `actual` differ from `expected`, by name and by statement.
    private static func differences(
        _ expected: [StoreIndex], _ actual: [StoreIndex], missing: (String) -> SchemaDifference, extra: (String) -> SchemaDifference,
        differs: (String, String, String) -> SchemaDifference
    ) -> [SchemaDifference] {
        var result = [SchemaDifference]()
        let found = Dictionary(actual.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for object in expected {
            guard let other = found[object.name] else {
                result.append(missing(object.name))
                continue
            }
            if other.normalizedSQL != object.normalizedSQL { result.append(differs(object.name, object.normalizedSQL, other.normalizedSQL)) }
        }
        let names = Set(expected.map(\.name))
        for object in actual where !names.contains(object.name) { result.append(extra(object.name)) }
        return result
    }

    /// A missing and an extra table with the same columns are one table under another name.
    private static func pairRenamedTables(_ differences: [SchemaDifference], expected: StoreSchema, actual: StoreSchema) -> [SchemaDifference] {
        var result = differences
        for case .missingTable(let name) in differences {
            guard let table = expected.table(named: name), let other = actual.table(withColumnsOf: table)?.name,
                let partner = result.firstIndex(of: .extraTable(other))
            else { continue }
            result.remove(at: partner)
            result.removeAll { $0 == .missingTable(name) }
            result.append(.tableNamedDifferently(expected: name, actual: other))
        }
        return result
    }

    private static func columnDifferences(_ expected: StoreTable, _ actual: StoreTable) -> [SchemaDifference] {
        var result = [SchemaDifference]()
        let actualNames = Set(actual.columns.map(\.name))
        let expectedNames = Set(expected.columns.map(\.name))
        for column in expected.columns where !actualNames.contains(column.name) {
            result.append(.missingColumn(table: expected.name, column: column.name))
        }
        for column in actual.columns where !expectedNames.contains(column.name) {
            result.append(.extraColumn(table: expected.name, column: column.name))
        }
        let describe = { (columns: [StoreColumn]) in columns.map { "\($0.name) \($0.type)" } }
        let common = { (columns: [StoreColumn]) in
            columns.filter { expectedNames.contains($0.name) && actualNames.contains($0.name) }
        }
        if common(expected.columns) != common(actual.columns) {
            result.append(
                .columnsDiffer(
                    table: expected.name, expected: describe(common(expected.columns)),
                    actual: describe(common(actual.columns))))
        }
        if expected.primaryKey != actual.primaryKey {
            result.append(.primaryKeyDiffers(table: expected.name, expected: expected.primaryKey, actual: actual.primaryKey))
        }
        return result
    }
}
