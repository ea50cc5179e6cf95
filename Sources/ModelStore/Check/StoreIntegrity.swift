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

    /// Throws `corrupt` when the open database `db` of the store at `path` is damaged: its file
    /// is not a whole number of pages (SQLite never writes part of a page, so the file was
    /// truncated or extended by something else, which SQLite itself may only see as a missing
    /// index row), or SQLite's check at `depth` finds a fault.
    public static func check(_ db: Database, path: String, depth: Depth) throws {
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        let file = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'") ?? ""
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        if pageSize > 0, size % pageSize != 0 {
            throw StoreError(
                .corrupt, path: path,
                message: "the database is damaged: its size (\(size) bytes) is not a whole number of \(pageSize)-byte pages",
                sqliteCode: 11)
        }
        let result = try String.fetchAll(db, sql: "PRAGMA \(depth.rawValue)")
        guard result == ["ok"] else {
            throw StoreError(
                .corrupt, path: path, message: "the database is damaged: \(result.prefix(3).joined(separator: "; "))",
                sqliteCode: 11)
        }
    }
}
