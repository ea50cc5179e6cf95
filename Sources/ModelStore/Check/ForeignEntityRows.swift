import GRDB

/// Rows of an entity table whose `Z_ENT` is the number of no entity stored in that table: a row
/// in one entity's table carrying another entity's number. Core Data writes none, but stores
/// with them exist (a public app's test store has one); `store check` and a migration's plan
/// report them, and a migration keeps their number naming the same entity.
public struct ForeignEntityRows: Sendable, Hashable, Codable {
    public var table: String
    public var entityNumber: Int
    /// The entity the number names in the store's version; nil when it names none.
    public var entity: String?
    public var count: Int

    package init(table: String, entityNumber: Int, entity: String?, count: Int) {
        self.table = table
        self.entityNumber = entityNumber
        self.entity = entity
        self.count = count
    }

    /// The foreign rows of each entity table of `layout` that `db` holds, by table and number,
    /// counted in one scan of each table.
    package static func find(in db: Database, layout: StoreLayout) throws -> [ForeignEntityRows] {
        var result = [ForeignEntityRows]()
        for table in Set(layout.entities.map(\.table)).sorted() where try db.tableExists(table) {
            let own = layout.entities.filter { $0.table == table }.map { String($0.number) }.joined(separator: ", ")
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT Z_ENT, COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE Z_ENT NOT IN (\(own)) GROUP BY Z_ENT ORDER BY Z_ENT")
            for row in rows {
                let number = try CheckedRow(row, table: table, in: db).required(0, "Z_ENT", as: Int.self)
                let entity = layout.entities.first { $0.number == number }?.name
                result.append(ForeignEntityRows(table: table, entityNumber: number, entity: entity, count: row[1]))
            }
        }
        return result
    }

    /// The warning `store check` and a plan print: the count, the table and the number.
    public var warning: String {
        "\(count) row\(count == 1 ? " of \(table) carries" : "s of \(table) carry") entity number \(entityNumber)"
            + (entity.map { " ('\($0)', whose rows are stored in another table)" } ?? ", which names no entity")
    }
}
