import Foundation
import GRDB

/// Access to a store that leaves every byte of it as it was.
///
/// A read-write open of a WAL store checkpoints its `-wal` into the main file and creates a
/// `-shm`; even a read-only open can create the `-shm`. So a store is read from a private copy
/// of its files in a temporary folder, removed afterwards.
public enum StoreSnapshot {
    /// Runs `body` with the path of a private copy of the store's files (main, `-wal`, `-shm`,
    /// `-journal`), removed afterwards;
    /// `body` may change the copy as it likes (a dry run does).
    /// The copy is readable and writable by us whatever the store's own mode (a store of mode
    /// 444 in a read-only folder can be planned on). Failures to copy or open are
    /// ``StoreError``s of their class.
    public static func withPrivateCopy<T>(of path: String, _ body: (String) throws -> T) throws -> T {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("modelc-snapshot-\(UUID().uuidString)")
        let copy = folder.appendingPathComponent("store.sqlite").path
        try StoreError.mapping(path: path) {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer { try? manager.removeItem(at: folder) }
        try StoreError.mapping(path: path) {
            // With a hot -journal, opening the copy rolls the interrupted write back, as the
            // store's next writer will: reading the main file without it would see half a
            // transaction.
            for suffix in [""] + StoreFiles.sidecarSuffixes where suffix.isEmpty || manager.fileExists(atPath: path + suffix) {
                try manager.copyItem(atPath: path + suffix, toPath: copy + suffix)
                try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy + suffix)
            }
        }
        return try StoreError.mapping(path: path) { try body(copy) }
    }

    static func withReadOnlyDatabase<T>(at path: String, _ body: (Database) throws -> T) throws -> T {
        try withPrivateCopy(of: path) { copy in
            var configuration = Configuration()
            configuration.readonly = false  // WAL copies need a writable -shm; the copy is ours.
            let queue = try DatabaseQueue(path: copy, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read(body)
        }
    }
}
