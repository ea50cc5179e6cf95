import GRDB
import ModelStore

/// Writes a migrated store, built whole in a staging file, into the store's own file, in the
/// transaction through which the run holds the store's write lock: the staging file is attached,
/// every table and view of the store is dropped (their indexes and triggers with them; SQLite's
/// own `sqlite_` tables stay), the staging's tables and indexes are created, their rows copied,
/// then its views and triggers created, with `sqlite_sequence` and `user_version`.
///
/// Every connection, an app's included, sees the old store or the new one (one transaction),
/// and keeps the file it has open: a rename would leave it writing to the old, unlinked file.
/// SQLite's backup API would copy pages faster, but `sqlite3_backup_init` refuses a
/// destination connection with an open transaction: the backup would have to take the lock
/// anew after the run let go of it, and a writer's commit in between would be overwritten.
/// Here a writer that waited for the lock commits after, on the new store, or fails on its
/// schema; nothing it committed is lost. As in `VACUUM`, the indexes are created before the rows
/// go in, so that `INSERT … SELECT *` copies tables and indexes record by record (SQLite's
/// transfer optimization) rather than sorting every index again.
enum StoreContentCopy {
    /// The name the staging file is attached under.
    static let schema = "modelc_staged"

    /// Replaces the content of the store `db` has open as its main database, in the write
    /// transaction `db` holds, with that of the database at `staging`, which stays attached
    /// until ``detach(_:)``, after the transaction ends.
    static func replace(_ db: Database, with staging: String) throws {
        try db.execute(sql: "ATTACH DATABASE ? AS \(schema)", arguments: [staging])
        let ownObjects = "name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        let dropped = try Row.fetchAll(db, sql: "SELECT type, name FROM main.sqlite_master WHERE type IN ('view', 'table') AND \(ownObjects) ORDER BY type DESC")
        for row in dropped {
            let kind = (row["type"] as String?) == "view" ? "VIEW" : "TABLE"
            let name: String = row["name"]
            try db.execute(sql: "DROP \(kind) IF EXISTS main.\(name.quotedDatabaseIdentifier)")
        }
        let objects = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM \(schema).sqlite_master WHERE sql IS NOT NULL AND \(ownObjects) ORDER BY rowid")
        let ofType = { (type: String) in objects.filter { ($0["type"] as String?) == type } }
        for row in ofType("table") + ofType("index") { try db.execute(sql: row["sql"]) }
        for row in ofType("table") {
            let table = (row["name"] as String).quotedDatabaseIdentifier
            try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM \(schema).\(table)")
        }
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM \(schema).sqlite_master WHERE name = 'sqlite_sequence'") == true {
            try db.execute(sql: "DELETE FROM main.sqlite_sequence")
            try db.execute(sql: "INSERT INTO main.sqlite_sequence SELECT * FROM \(schema).sqlite_sequence")
        }
        for row in ofType("view") + ofType("trigger") { try db.execute(sql: row["sql"]) }
        let version = try Int.fetchOne(db, sql: "PRAGMA \(schema).user_version") ?? 0
        try db.execute(sql: "PRAGMA main.user_version = \(version)")
    }

    /// Detaches the staging file from `db` when it is attached; SQLite refuses while a
    /// transaction is open, so it comes after the commit or the rollback.
    static func detach(_ db: Database) throws {
        guard try Row.fetchAll(db, sql: "PRAGMA database_list").contains(where: { $0["name"] == schema }) else { return }
        try db.execute(sql: "DETACH DATABASE \(schema)")
    }
}
