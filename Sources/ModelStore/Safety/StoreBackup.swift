import Foundation
import GRDB

/// A consistent copy of a live store made with SQLite's online backup API, never a plain file
/// copy: the copy holds every committed transaction, those still in the `-wal` included, and is
/// a single self-contained file. The external-data folder is copied beside it.
public enum StoreBackup {
    /// Copies the store at `source` to `destination`, which must not exist. The copy is written
    /// under a temporary name and renamed when complete.
    public static func backup(_ source: String, to destination: String) throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source) else { throw StoreError.notFound(path: source) }
        guard !manager.fileExists(atPath: destination) else { throw StoreError.alreadyExists(path: destination) }
        let staging = destination + ".modelc-\(UUID().uuidString)"
        defer { StoreFiles(path: staging).removeDatabaseAndSidecars() }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let from = try DatabaseQueue(path: source, configuration: configuration)
            let to = try DatabaseQueue(path: staging)
            try from.backup(to: to)
            try to.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            try to.close()
            try from.close()
        } catch let error as DatabaseError {
            throw StoreError(sqlite: error, path: source)
        }
        let files = StoreFiles(path: source)
        if files.hasSupportFolder {
            try manager.copyItem(atPath: files.supportFolder, toPath: StoreFiles(path: destination).supportFolder)
        }
        try manager.moveItem(atPath: staging, toPath: destination)
    }
}
