import Foundation
import GRDB
import ModelExpression
import ModelSchema

/// The objects of one store, read and written in Core Data's row layout: the one place that
/// knows how an instance is a row (`Z_PK`, `Z_ENT`, `Z_OPT`), how its attributes are typed in
/// their columns and where its relationships' links are.
///
/// Use it inside one access to the database `db` (a GRDB write or read closure).
package final class ObjectRows {
    package let db: Database
    package let version: ModelVersion
    package let layout: StoreLayout
    package let entities: EntityHierarchy
    /// Which store of a migration the objects belong to, as their references say.
    package let side: ObjectReference.Side
    /// Entity names by number, for the `Z_ENT` of rows.
    private let names: [Int: String]
    /// The highest primary key handed out in each root table, loaded on first insert.
    var lastKeys: [String: Int64] = [:]
    /// Each entity's stored attributes by name, and its relationships' storage, looked up once.
    private var attributesByEntity: [String: [String: Attribute]] = [:]
    private var storageByRelationship: [String: RelationshipStorage?] = [:]
    private var kinds: [String: String] = [:]

    package init(db: Database, version: ModelVersion, layout: StoreLayout, side: ObjectReference.Side) {
        self.db = db
        self.version = version
        self.layout = layout
        self.entities = EntityHierarchy(version)
        self.side = side
        self.names = Dictionary(layout.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - Entities

    /// The layout of `entity`; throws when the version has no such entity.
    func entityLayout(_ entity: String) throws -> EntityLayout {
        guard let found = layout.entity(named: entity) else {
            throw EvaluationError("the \(side) model has no entity '\(entity)'")
        }
        return found
    }

    /// The numbers of `entity` and of its subentities, for `Z_ENT IN (…)`.
    package func kindNumbers(_ entity: String) -> String {
        if let known = kinds[entity] { return known }
        let numbers = layout.entities.filter { entities.isKind($0.name, of: entity) }.map { String($0.number) }.joined(separator: ", ")
        kinds[entity] = numbers
        return numbers
    }

    /// A reference to the row `key` of entity number `number`.
    func reference(_ key: Int64, number: Int?, fallback: String) -> ObjectReference {
        ObjectReference(side: side, entity: number.flatMap { names[$0] } ?? fallback, primaryKey: key)
    }

    // MARK: - Fetching

    /// The primary keys of the instances of `entity` itself (not its subentities, as a migration's
    /// source fetch reads them) after `key`, at most `limit`, in key order.
    package func primaryKeys(of entity: String, after key: Int64, limit: Int) throws -> [Int64] {
        let found = try entityLayout(entity)
        return try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT Z_PK FROM \(found.table) WHERE Z_ENT = ? AND Z_PK > ? ORDER BY Z_PK LIMIT ?"),
            arguments: [found.number, key, limit])
    }

    /// The instances of `entity` and its subentities after `key`, at most `limit`, in key order.
    package func instances(ofKind entity: String, after key: Int64, limit: Int) throws -> [ObjectReference] {
        let found = try entityLayout(entity)
        return try references(
            db.cachedStatement(sql: "SELECT Z_PK, Z_ENT FROM \(found.table) WHERE Z_ENT IN (\(kindNumbers(entity))) AND Z_PK > ? ORDER BY Z_PK LIMIT ?"),
            [key, limit], table: found.table, fallback: entity)
    }

    /// The instances of `entity` and its subentities whose attribute `key` equals `value`, in key order.
    package func instances(ofKind entity: String, where key: String, equals value: EvaluatedValue) throws -> [ObjectReference] {
        let found = try entityLayout(entity)
        guard let column = found.columns[key], let attribute = attribute(key, of: entity) else {
            throw EvaluationError("entity '\(entity)' has no attribute '\(key)'")
        }
        let stored = try StoredValue.encode(value, as: attribute.type)
        let condition = stored.isNull ? "\(column) IS NULL" : "\(column) = ?"
        return try references(
            WholeText.rows(
                db.cachedStatement(sql: "SELECT Z_PK, Z_ENT FROM \(found.table) WHERE Z_ENT IN (\(kindNumbers(entity))) AND \(condition) ORDER BY Z_PK"),
                stored.isNull ? [] : [stored]),
            table: found.table, fallback: entity)
    }

    /// How many instances of `entity` itself the store holds.
    package func count(of entity: String) throws -> Int {
        let found = try entityLayout(entity)
        return try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(found.table) WHERE Z_ENT = ?"), arguments: [found.number]) ?? 0
    }

    // MARK: - Values

    /// The stored attribute `name` of `entity` (inherited ones included).
    package func attribute(_ name: String, of entity: String) -> Attribute? {
        if let known = attributesByEntity[entity] { return known[name] }
        let all = entities.entity(named: entity).map { entities.attributes(of: $0) } ?? []
        attributesByEntity[entity] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return attributesByEntity[entity]?[name]
    }

    /// Where `relationship` of `entity` keeps its links, computed once per pair.
    func storage(of relationship: Relationship, in entity: String) -> RelationshipStorage? {
        let key = entity + "." + relationship.name
        if let known = storageByRelationship[key] { return known }
        let found = RelationshipStorage(relationship, of: entity, entities: entities, layout: layout)
        storageByRelationship[key] = .some(found)
        return found
    }

    /// The value of `key` on `object`: an attribute's typed value, a to-one's object or `.null`, a
    /// to-many's objects as a collection.
    package func value(forKey key: String, of object: ObjectReference) throws -> EvaluatedValue {
        let found = try entityLayout(object.entity)
        if let attribute = attribute(key, of: object.entity) {
            guard let column = found.columns[key] else { return .null }
            let rows = try WholeText.rows(db.cachedStatement(sql: "SELECT \(column) FROM \(found.table) WHERE Z_PK = ?"), [object.primaryKey.databaseValue])
            return StoredValue.decode(try rows.next().map { WholeColumn.value($0, 0) } ?? .null, as: attribute.type)
        }
        guard let relationship = entities.relationship(named: key, in: object.entity) else {
            throw EvaluationError("entity '\(object.entity)' has no property '\(key)'")
        }
        let targets = try related(relationship, of: object)
        return relationship.isToMany ? .collection(targets.map(EvaluatedValue.object)) : targets.first.map(EvaluatedValue.object) ?? .null
    }

    /// The objects `relationship` of `object` links to, in the relationship's order.
    package func related(_ relationship: Relationship, of object: ObjectReference) throws -> [ObjectReference] {
        guard let storage = storage(of: relationship, in: object.entity) else { return [] }
        let target = relationship.destinationEntityName
        let targetLayout = try entityLayout(target)
        switch storage {
        case .foreignKey(let column, let entityColumn):
            let owner = try entityLayout(object.entity)
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(column), \(entityColumn ?? "NULL") FROM \(owner.table) WHERE Z_PK = ?"),
                arguments: [object.primaryKey])
            else { return [] }
            let checked = CheckedRow(row, table: owner.table, in: db)
            guard let key = try checked.optional(0, column, as: Int64.self) else { return [] }
            var number: Int? = try entityColumn.map { try checked.optional(1, $0) } ?? targetLayout.number
            // Without an entity column, or with an empty one (a writer that left it NULL), the
            // target's own row says which entity it is.
            if (entityColumn == nil && hasSubentities(target)) || number == nil {
                number = try Row.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(targetLayout.table) WHERE Z_PK = ?"), arguments: [key])
                    .flatMap { try CheckedRow($0, table: targetLayout.table, in: db).optional(0, "Z_ENT") }
            }
            return [reference(key, number: number, fallback: target)]
        case .inverseForeignKey(let table, let column, _, let order):
            return try references(
                db.cachedStatement(sql: "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = ? AND Z_ENT IN (\(kindNumbers(target))) ORDER BY \(order ?? "Z_PK"), Z_PK"),
                [object.primaryKey], table: table, fallback: target)
        case .joinTable(let table, let own, let other):
            return try references(
                db.cachedStatement(sql: "SELECT d.Z_PK, d.Z_ENT FROM \(table) j JOIN \(targetLayout.table) d ON d.Z_PK = j.\(other) WHERE j.\(own) = ? ORDER BY d.Z_PK"),
                [object.primaryKey], table: targetLayout.table, fallback: target)
        case .hiddenInverse(let table, let column):
            return try references(
                db.cachedStatement(sql: "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = ? ORDER BY Z_PK"), [object.primaryKey], table: table, fallback: target)
        }
    }

    /// The objects of the rows `statement` selects as (`Z_PK`, `Z_ENT`) from `table`, read in
    /// place without copying each row; a row whose `Z_ENT` names no entity is a `fallback`.
    /// - Throws: ``StoreError`` of class `corrupt` naming `table` when a key or entity number is
    ///   no integer, where GRDB's subscripts would stop the process.
    private func references(_ statement: Statement, _ arguments: StatementArguments, table: String, fallback: String) throws -> [ObjectReference] {
        try references(Row.fetchCursor(statement, arguments: arguments), table: table, fallback: fallback)
    }

    /// The objects `rows` name by their `Z_PK` and `Z_ENT`, read checked.
    private func references(_ rows: RowCursor, table: String, fallback: String) throws -> [ObjectReference] {
        var found = [ObjectReference]()
        while let row = try rows.next() {
            let checked = CheckedRow(row, table: table, in: db)
            found.append(reference(try checked.required(0, "Z_PK"), number: try checked.optional(1, "Z_ENT"), fallback: fallback))
        }
        return found
    }

    /// Whether `entity` has subentities (its rows may be of another `Z_ENT`).
    func hasSubentities(_ entity: String) -> Bool {
        version.entities.contains { $0.parentEntityName == entity }
    }
}
