import Foundation
import GRDB

/// Whether a store's database is intact, by SQLite's own checks: refuses a damaged store with
/// class `corrupt` (259, SQLite code 11) before anything reads or writes its rows.
public enum StoreIntegrity {
    /// How thoroughly to look.
    public enum Depth: String, Sendable {
        /// `PRAGMA quick_check`: every page and record, linear in the file's size; not whether
        /// indexes match their tables.
        case quick = "quick_check"
        /// `PRAGMA integrity_check`: also that every index holds exactly its table's rows.
        case full = "integrity_check"
    }

    /// The tables every Core Data store has besides its entities' and whose rows every
    /// migration rewrites: the schema (checking it also checks the freelist, where new pages
    /// come from), the primary-key counters, the metadata and the model cache.
    public static let bookkeepingTables = ["sqlite_master", "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    // MARK: - Checks

    /// Throws `corrupt` when the open database `db` of the store at `path` is damaged: its file
    /// is not a whole number of pages (SQLite never writes part of a page, so the file was
    /// truncated or extended by something else, which SQLite itself may only see as a missing
    /// index row), or SQLite's check at `depth` finds a fault.
    ///
    /// With `tables`, SQLite checks only those tables (and their indexes) that exist, and the
    /// freelist when `sqlite_master` is among them, at a cost linear in their size rather than
    /// the file's: what a step reads or writes, not the whole store (such a check skips the
    /// pointer map: see ``checkPointerMap(_:path:)``). Without, every page.
    public static func check(_ db: Database, path: String, depth: Depth, tables: [String]? = nil) throws {
        try checkWholePages(db, path: path)
        guard let tables else {
            try report(try String.fetchAll(db, sql: "PRAGMA \(depth.rawValue)"), path: path)
            return
        }
        for table in tables {
            guard try table == "sqlite_master" || db.tableExists(table) else { continue }
            try report(try String.fetchAll(db, sql: "PRAGMA \(depth.rawValue)(\(table.quotedDatabaseIdentifier))"), path: path)
        }
    }

    /// Throws `corrupt` when `db` is an `auto_vacuum` database whose pointer map is damaged
    /// (`PointerMap`), at the cost of one page in `usable size / 5`. The map is read as
    /// committed, so call it before the connection writes.
    public static func checkPointerMap(_ db: Database, path: String) throws {
        try PointerMap.check(db, path: path)
    }

    /// Throws `corrupt` when the database file is not a whole number of pages.
    static func checkWholePages(_ db: Database, path: String) throws {
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        let file = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'") ?? ""
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        if pageSize > 0, size % pageSize != 0 {
            throw StoreError(
                .corrupt, path: path,
                message: "the database is damaged: its size (\(size) bytes) is not a whole number of \(pageSize)-byte pages",
                sqliteCode: 11)
        }
    }

    /// Throws `corrupt` unless SQLite's check answered `ok`.
    static func report(_ result: [String], path: String) throws {
        guard result == ["ok"] else {
            throw StoreError(
                .corrupt, path: path, message: "the database is damaged: \(result.prefix(3).joined(separator: "; "))",
                sqliteCode: 11)
        }
    }
}
