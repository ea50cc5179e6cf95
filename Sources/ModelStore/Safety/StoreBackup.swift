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
/// backup never replaces a file. A migration names it only once it has committed (`Pending`).
public enum StoreBackup {
    /// Copies the store at `source` to `destination`, which must not exist.
    public static func backup(_ source: String, to destination: String) throws {
        let pending = try prepare(source, for: destination, tag: "")
        defer { pending.discard() }
        _ = try pending.publish()
    }

    // MARK: - In two phases

    /// A backup copied but not yet named: a migration makes it before its first write and names
    /// it only when it commits, so that a run that ends without migrating, or is killed before
    /// its commit, leaves no backup, only a staging file (`<name>.modelc-<UUID>`) the next run
    /// removes as a dead run's; one killed between its commit and the naming leaves a copy the
    /// next run names (``StoreLeftovers/cleanUp(beside:storeHashes:)``, beside the store or the
    /// backup).
    package struct Pending: Sendable {
        let source: String
        /// Where the unnamed copy is.
        package let staging: String
        /// The run's claim on the unnamed copy, which tells other runs it is not a dead run's.
        let claim: StagingClaim
        /// The chosen path, or nil for a free `<name>.<tag>-<time>` beside the source.
        let destination: String?
        let tag: String

        /// Names the copy and copies the external-data folder beside it; returns its path.
        package func publish() throws -> String {
            let named = try name()
            discard()
            try StoreBackup.copySupportFolder(of: source, to: named)
            return named
        }

        /// Gives the copy its chosen name, or the first free one with the tag.
        private func name() throws -> String {
            if let destination {
                guard try StoreBackup.publish(staging, as: destination) else { throw StoreError.alreadyExists(path: destination) }
                return destination
            }
            for _ in 0..<1000 {
                let free = SiblingName.free(for: source, tag: tag)
                if try StoreBackup.publish(staging, as: free) { return free }
            }
            throw StoreError.alreadyExists(path: SiblingName.free(for: source, tag: tag))
        }

        /// Removes the unnamed copy.
        package func discard() {
            StoreFiles(path: staging).removeDatabaseAndSidecars()
            claim.release()
        }
    }

    /// Copies the store at `source` for a backup at `destination` (which must not exist), or,
    /// when it is nil, beside the source with `tag`, to be named later with ``Pending/publish()``.
    /// With `byteForByte` the file is copied as it is (`StoreFileReader`), which holds the
    /// whole store only while the caller holds its write lock in a rollback journal and has
    /// written nothing yet: the backup is then the very file the store was.
    package static func prepare(_ source: String, for destination: String?, tag: String, byteForByte: Bool = false) throws -> Pending {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source) else { throw StoreError.notFound(path: source) }
        if let destination, manager.fileExists(atPath: destination) { throw StoreError.alreadyExists(path: destination) }
        let staging = (destination ?? SiblingName.free(for: source, tag: tag)) + ".modelc-\(UUID().uuidString)"
        // The copy's file is claimed before it is written, so that no run takes it for a dead run's.
        let pending = Pending(source: source, staging: staging, claim: try StagingClaim(creating: staging), destination: destination, tag: tag)
        do {
            if byteForByte {
                try StoreFileReader.copy(source, to: pending.staging)
            } else {
                try copyDatabase(source, to: pending.staging)
            }
        } catch {
            pending.discard()
            throw error
        }
        return pending
    }

    // MARK: - Copying

    /// Copies the external-data folder of the store at `source`, when it has one, beside `backup`.
    static func copySupportFolder(of source: String, to backup: String) throws {
        let files = StoreFiles(path: source)
        guard files.hasSupportFolder else { return }
        try StoreError.mapping(path: backup) {
            try FileManager.default.copyItem(atPath: files.supportFolder, toPath: StoreFiles(path: backup).supportFolder)
        }
    }

    /// Copies the database at `source`, with every committed transaction, to a new
    /// self-contained file at `destination` (rollback journal), without its external-data folder.
    static func copyDatabase(_ source: String, to destination: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        try StoreError.mapping(path: source) {
            let from = try DatabaseQueue(path: source, configuration: configuration)
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
