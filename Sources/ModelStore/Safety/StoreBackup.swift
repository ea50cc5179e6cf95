import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A consistent copy of a live store made with SQLite's online backup API, never a plain file
/// copy: the copy holds every committed transaction, those still in the `-wal` included, and is
/// a single self-contained file. The external-data folder is copied beside it.
///
/// The copy is written under a temporary name (`<backup>.modelc-<UUID>`) and given its name with
/// `link(2)`, which fails when the name is taken: two runs never pick the same name, and a
/// backup never replaces a file.
public enum StoreBackup {
    /// Copies the store at `source` to `destination`, which must not exist.
    public static func backup(_ source: String, to destination: String) throws {
        _ = try copy(source, stagingBeside: destination) { staging in
            guard try publish(staging, as: destination) else { throw StoreError.alreadyExists(path: destination) }
            return destination
        }
    }

    /// Copies the store at `source` beside it as `<name>.<tag>-<UTC time>.<extension>` (with
    /// `-2`, `-3`, … when taken, ``SiblingName``) and returns the backup's path.
    public static func backup(_ source: String, tag: String) throws -> String {
        let first = SiblingName.free(for: source, tag: tag)
        return try copy(source, stagingBeside: first) { staging in
            for _ in 0..<1000 {
                let name = SiblingName.free(for: source, tag: tag)
                if try publish(staging, as: name) { return name }
            }
            throw StoreError.alreadyExists(path: first)
        }
    }

    // MARK: - Copying

    /// Writes the copy under a temporary name beside `destination`, names it with `name`, then
    /// copies the external-data folder; the temporary name is removed whatever happens.
    private static func copy(_ source: String, stagingBeside destination: String, name: (String) throws -> String) throws -> String {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source) else { throw StoreError.notFound(path: source) }
        guard !manager.fileExists(atPath: destination) else { throw StoreError.alreadyExists(path: destination) }
        let staging = destination + ".modelc-\(UUID().uuidString)"
        defer { StoreFiles(path: staging).removeDatabaseAndSidecars() }
        try copyDatabase(source, to: staging)
        let backup = try name(staging)
        let files = StoreFiles(path: source)
        if files.hasSupportFolder {
            try StoreError.mapping(path: backup) {
                try manager.copyItem(atPath: files.supportFolder, toPath: StoreFiles(path: backup).supportFolder)
            }
        }
        return backup
    }

    /// Copies the database at `source`, with every committed transaction, to a new
    /// self-contained file at `destination` (rollback journal), without its external-data folder.
    /// With `inPlace`, a store whose `-wal` holds nothing is read `immutable`
    /// (``StoreSnapshot/inPlaceURI(of:)``), which creates no `-wal` or `-shm` beside it but
    /// takes no lock: only for a store no other process writes meanwhile.
    static func copyDatabase(_ source: String, to destination: String, inPlace: Bool = false) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        try StoreError.mapping(path: source) {
            let from = try DatabaseQueue(path: (inPlace ? StoreSnapshot.inPlaceURI(of: source) : nil) ?? source, configuration: configuration)
            let to = try DatabaseQueue(path: destination)
            try from.backup(to: to)
            try to.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            try to.close()
            try from.close()
        }
    }

    /// Gives the complete copy at `staging` the name `destination` unless it is taken; `false`
    /// when it is.
    private static func publish(_ staging: String, as destination: String) throws -> Bool {
        if link(staging, destination) == 0 { return true }
        if errno == EEXIST { return false }
        let reason = String(cString: strerror(errno))
        throw StoreError(
            errno == EACCES || errno == EPERM || errno == EROFS ? .permissionDenied : .alreadyExists,
            code: 513, path: destination, message: "cannot write the backup: \(reason)")
    }
}
