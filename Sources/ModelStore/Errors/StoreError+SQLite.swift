import Foundation
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

    /// The class of a file-system failure on the store at `path` (or a file beside it).
    public init(file error: CocoaError, path: String) {
        let file = (error.userInfo[NSFilePathErrorKey] as? String) ?? path
        switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile:
            self.init(.notFound, path: file, message: "no such file")
        case .fileReadNoPermission:
            self = .permissionDenied(path: file, writing: false)
        case .fileWriteNoPermission, .fileWriteVolumeReadOnly:
            self = .permissionDenied(path: file, writing: true)
        case .fileWriteFileExists:
            self = .alreadyExists(path: file)
        default:
            self.init(.permissionDenied, code: error.code.rawValue, path: file, message: "file error: \(error.localizedDescription)")
        }
    }

    /// Runs `body`, turning the SQLite and file-system errors it throws into the ``StoreError``
    /// of their class: the one place where raw GRDB and Foundation errors stop. Any other error
    /// passes through.
    public static func mapping<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError(sqlite: error, path: path)
        } catch let error as CocoaError {
            throw StoreError(file: error, path: path)
        }
    }
}
