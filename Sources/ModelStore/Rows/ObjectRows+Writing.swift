import Foundation
import GRDB
import ModelArchive
import ModelExpression
import ModelSchema

/// Inserting instances and setting their values and links, as Core Data saves them: a new row
/// gets the next primary key of its hierarchy, `Z_OPT` 1 and the attribute defaults; setting one
/// side of a relationship sets its inverse; `Z_PRIMARYKEY.Z_MAX` is written at the end.
extension ObjectRows {
    // MARK: - Inserting

    /// Inserts an instance of `entity` with the given attribute values (the others get their
    /// default) and returns it.
    package func insert(_ entity: String, values: [String: EvaluatedValue] = [:]) throws -> ObjectReference {
        let found = try entityLayout(entity)
        guard let model = entities.entity(named: entity), !model.isAbstract else {
            throw EvaluationError("cannot insert an instance of the abstract entity '\(entity)'")
        }
        let key = try nextKey(table: found.table)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var arguments: [DatabaseValue] = [key.databaseValue, found.number.databaseValue, 1.databaseValue]
        for attribute in entities.attributes(of: model) {
            guard let column = found.columns[attribute.name] else { continue }
            let stored: DatabaseValue
            if let value = values[attribute.name] {
                stored = try encode(value, attribute, of: entity)
            } else if let fallback = StoredDefault(of: attribute) {
                stored = Self.databaseValue(fallback)
            } else {
                continue
            }
            columns.append(column)
            arguments.append(stored)
        }
        for name in values.keys where attribute(name, of: entity) == nil {
            throw EvaluationError("entity '\(entity)' has no attribute '\(name)'")
        }
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        try WholeText.execute(db.cachedStatement(sql: "INSERT INTO \(found.table) (\(columns.joined(separator: ", "))) VALUES (\(marks))"), arguments)
        return ObjectReference(side: side, entity: entity, primaryKey: key)
    }

    /// The next primary key of a root table, from `Z_PRIMARYKEY.Z_MAX` and the rows present.
    private func nextKey(table: String) throws -> Int64 {
        if lastKeys[table] == nil {
            let root = layout.entities.first { $0.table == table && $0.superNumber == 0 }
            let recorded = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root?.number ?? 0]) ?? 0
            let present = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table)") ?? 0
            lastKeys[table] = max(recorded, present)
        }
        lastKeys[table]! += 1
        return lastKeys[table]!
    }

    /// The highest primary key handed out so far in the table of `entity`: rows inserted by
    /// SQL take the keys after it, then ``claimPrimaryKeys(upTo:forTableOf:)`` records them.
    package func lastPrimaryKey(ofTableOf entity: String) throws -> Int64 {
        let table = try entityLayout(entity).table
        if lastKeys[table] == nil { _ = try nextKey(table: table); lastKeys[table]! -= 1 }
        return lastKeys[table]!
    }

    /// Records that the keys up to `key` of the table of `entity` are taken.
    package func claimPrimaryKeys(upTo key: Int64, forTableOf entity: String) throws {
        let table = try entityLayout(entity).table
        lastKeys[table] = max(lastKeys[table] ?? 0, key)
    }

    /// Writes the highest primary key handed out in each table to its root's `Z_PRIMARYKEY.Z_MAX`.
    package func writePrimaryKeyMaximums() throws {
        for (table, last) in lastKeys {
            for root in layout.entities where root.table == table && root.superNumber == 0 {
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(COALESCE(Z_MAX, 0), ?) WHERE Z_ENT = ?", arguments: [last, root.number])
            }
        }
    }

    // MARK: - Setting values

    /// Sets `key` of `object`: an attribute's value, a to-one's object (`.null` clears it), or a
    /// to-many's objects (added to those it has).
    package func setValue(_ value: EvaluatedValue, forKey key: String, of object: ObjectReference) throws {
        let found = try entityLayout(object.entity)
        if let attribute = attribute(key, of: object.entity) {
            guard let column = found.columns[key] else { return }
            let stored = try encode(value, attribute, of: object.entity)
            try WholeText.execute(db.cachedStatement(sql: "UPDATE \(found.table) SET \(column) = ? WHERE Z_PK = ?"), [stored, object.primaryKey.databaseValue])
            return
        }
        guard let relationship = entities.relationship(named: key, in: object.entity) else {
            throw EvaluationError("entity '\(object.entity)' has no property '\(key)'")
        }
        var targets = [ObjectReference]()
        for element in value.elements {
            guard case .object(let target) = element, target.side == side else {
                throw EvaluationError("relationship '\(key)' of '\(object.entity)' cannot hold \(element)")
            }
            guard entities.isKind(target.entity, of: relationship.destinationEntityName) else {
                throw EvaluationError("relationship '\(key)' of '\(object.entity)' holds '\(relationship.destinationEntityName)' objects, not '\(target.entity)'")
            }
            targets.append(target)
        }
        // A to-one set from a to-many's values takes the first, as an array assigned through
        // key-value coding to a to-one in a value expression would need.
        if !relationship.isToMany, targets.count > 1 { targets = [targets[0]] }
        try link(object, relationship, to: targets, withInverse: true)
    }

    /// Links `object` to `targets` through `relationship` and, `withInverse`, a one-to-one's
    /// inverse through its own column (the other kinds share one storage with their inverse).
    private func link(_ object: ObjectReference, _ relationship: Relationship, to targets: [ObjectReference], withInverse: Bool) throws {
        guard let storage = storage(of: relationship, in: object.entity) else { return }
        switch storage {
        case .foreignKey(let column, let entityColumn):
            let owner = try entityLayout(object.entity)
            let target = targets.first
            let number = try target.map { try entityLayout($0.entity).number }
            try db.cachedStatement(sql: "UPDATE \(owner.table) SET \(column) = ?\(entityColumn.map { ", \($0) = ?" } ?? "") WHERE Z_PK = ?")
                .execute(arguments: StatementArguments([target?.primaryKey.databaseValue ?? .null] + (entityColumn == nil ? [] : [number?.databaseValue ?? .null]) + [object.primaryKey.databaseValue]))
            if withInverse, let target, let inverse = entities.inverse(of: relationship), !inverse.isToMany {
                try link(target, inverse, to: [object], withInverse: false)
            }
        case .inverseForeignKey(let table, let column, let entityColumn, let order):
            let number = try entityLayout(object.entity).number
            for (index, target) in targets.enumerated() {
                var sets = ["\(column) = ?"]
                var arguments: [DatabaseValue] = [object.primaryKey.databaseValue]
                if let entityColumn { sets.append("\(entityColumn) = ?"); arguments.append(number.databaseValue) }
                if let order { sets.append("\(order) = ?"); arguments.append((index + 1).databaseValue) }
                try db.cachedStatement(sql: "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?")
                    .execute(arguments: StatementArguments(arguments + [target.primaryKey.databaseValue]))
            }
        case .joinTable(let table, let own, let other):
            for target in targets {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table) (\(own), \(other)) VALUES (?, ?)")
                    .execute(arguments: [object.primaryKey, target.primaryKey])
            }
        case .hiddenInverse(let table, let column):
            for target in targets {
                try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?").execute(arguments: [object.primaryKey, target.primaryKey])
            }
        }
    }

    // MARK: - Values

    private func encode(_ value: EvaluatedValue, _ attribute: Attribute, of entity: String) throws -> DatabaseValue {
        do {
            return try StoredValue.encode(value, as: attribute.type)
        } catch let error as EvaluationError {
            throw EvaluationError("attribute '\(attribute.name)' of '\(entity)': \(error.message)")
        }
    }

    private static func databaseValue(_ value: StoredDefault) -> DatabaseValue {
        switch value {
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        }
    }
}
