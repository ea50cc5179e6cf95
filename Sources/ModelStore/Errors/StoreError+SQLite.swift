import GRDB

extension StoreError {
    /// The class of a SQLite failure on the store at `path`.
    public init(sqlite error: DatabaseError, path: String) {
        let code = error.resultCode
        switch code {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init(.locked, path: path, message: "the store is locked by another process", sqliteCode: code.rawValue)
        case .SQLITE_NOTADB:
            self.init(.corrupt, path: path, message: "the file is not a SQLite database", sqliteCode: code.rawValue)
        case .SQLITE_CORRUPT:
            self.init(.corrupt, path: path, message: "the database is damaged: \(error.message ?? "malformed")", sqliteCode: code.rawValue)
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            self.init(.permissionDenied, path: path, message: "no permission: \(error.message ?? "denied")", sqliteCode: code.rawValue)
        case .SQLITE_CANTOPEN:
            self.init(.permissionDenied, path: path, message: "the store cannot be opened: \(error.message ?? "")", sqliteCode: code.rawValue)
        default:
            self.init(.corrupt, path: path, message: "SQLite error \(code.rawValue): \(error.message ?? "")", sqliteCode: code.rawValue)
        }
    }
}
