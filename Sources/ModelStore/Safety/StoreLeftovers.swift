import Foundation
import ModelSchema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What modelc leaves beside a store when a run is killed, and the backups it keeps there:
/// removes the temporary files of dead runs (naming the backup a migration killed after its
/// commit left unnamed), and old backups beyond a number to keep.
package enum StoreLeftovers {
    /// What a clean-up beside a store did, for the run to list.
    package struct Cleanup: Sendable, Equatable {
        /// The dead runs' files removed.
        package var removed: [String] = []
        /// Backups that migrations killed after their commit had left under a staging name,
        /// now named.
        package var namedBackups: [String] = []

        package init(removed: [String] = [], namedBackups: [String] = []) {
            self.removed = removed
            self.namedBackups = namedBackups
        }
    }

    /// Cleans up after runs killed while they wrote beside the store at `path` (or beside its
    /// `--backup` path): removes their temporary files (`<name>.pre-….modelc-<UUID>`, a
    /// half-made backup, or `<name>.<ext>.modelc-<UUID>`, a half-made store, each with its
    /// `-journal`, `-wal` or `-shm`), except a backup copy whose migration committed before the
    /// run died, which is named instead: a whole store whose entity hashes are no longer the
    /// store's (`storeHashes`) is the only copy of the store as it was, and gets the name it
    /// was made for (its path without `.modelc-<UUID>`), or the first free `<that>-2`, `-3`, ….
    ///
    /// Call it only while holding the store's write lock: a modelc run writes such a file while
    /// it holds that lock, or claims it (``StagingClaim``: a backup copy waiting for its
    /// migration's commit to be named, a new store being filled), so one present then and
    /// unclaimed was left by a run that died.
    package static func cleanUp(beside path: String, storeHashes: [String: VersionHash]) -> Cleanup {
        let url = URL(fileURLWithPath: path)
        let owners = [url.deletingPathExtension().lastPathComponent + ".pre-", url.lastPathComponent + ".modelc-"]
        let dead = siblings(of: path).filter { file in
            let name = file.lastPathComponent
            return owners.contains { name.hasPrefix($0) } && isStagingName(name) && !StagingClaim.isClaimed(stagingFile(of: file.path))
        }.map(\.path).sorted()
        var cleanup = Cleanup()
        var kept = Set<String>()
        for file in dead where stagingFile(of: file) == file && isCommittedBackup(file, of: path, storeHashes: storeHashes) {
            // Kept even when it cannot be named: a backup is never removed.
            kept.insert(file)
            if let named = name(file) { cleanup.namedBackups.append(named) }
        }
        for file in dead where !kept.contains(file) {
            try? FileManager.default.removeItem(atPath: file)
            cleanup.removed.append(file)
        }
        return cleanup
    }

    /// Whether the dead run's copy at `file` is a backup of the store at `store` made by a
    /// migration that committed: a Core Data store whose hashes differ from `storeHashes`, made
    /// for a name that is neither the store's own (a half-made migrated store) nor a staging
    /// name (a store a stage of a killed run was building from its working copy).
    private static func isCommittedBackup(_ file: String, of store: String, storeHashes: [String: VersionHash]) -> Bool {
        let intended = URL(fileURLWithPath: intendedName(of: file)).lastPathComponent
        guard intended != URL(fileURLWithPath: store).lastPathComponent, !isStagingName(intended),
            let metadata = try? StoreMetadata.read(at: file)
        else { return false }
        return metadata.versionHashes != storeHashes
    }

    /// Gives the copy at `file` the name it was made for, or the first free one after it;
    /// returns it, or nil when no name could be taken.
    private static func name(_ file: String) -> String? {
        let intended = intendedName(of: file)
        let url = URL(fileURLWithPath: intended)
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        let stem = url.deletingPathExtension().path
        for counter in 1...1000 {
            let candidate = counter == 1 ? intended : "\(stem)-\(counter)\(suffix)"
            // link(2) never replaces a file: a name taken meanwhile is passed over.
            if link(file, candidate) == 0 {
                unlink(file)
                return candidate
            }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    /// The path a staging file was made for: its own without `.modelc-<UUID>`.
    private static func intendedName(of file: String) -> String {
        file.range(of: ".modelc-", options: .backwards).map { String(file[..<$0.lowerBound]) } ?? file
    }

    /// Removes all but the `count` newest backups made beside the store at `path` with `tag`
    /// (`<name>.<tag>-<time>.<extension>`), with their external-data folders; returns the
    /// removed paths.
    @discardableResult
    package static func pruneBackups(beside path: String, tag: String, keeping count: Int) -> [String] {
        let url = URL(fileURLWithPath: path)
        let prefix = url.deletingPathExtension().lastPathComponent + ".\(tag)-"
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        let backups = siblings(of: path).filter { file in
            let name = file.lastPathComponent
            return name.hasPrefix(prefix) && name.hasSuffix(suffix) && !isStagingName(name)
        }
        let newestFirst = backups.map { file in
            (file.path, (try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast)
        }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 > $1.0 }
        let removed = newestFirst.dropFirst(max(count, 0)).map(\.0)
        for file in removed {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: StoreFiles(path: file).supportFolder)
        }
        return removed.sorted()
    }

    /// The external-data folder of the store (or backup) at `path`.
    package static func supportFolder(of path: String) -> String {
        StoreFiles(path: path).supportFolder
    }

    // MARK: - Names

    /// The files in the store's folder whose names start with the store's name without its
    /// extension and a dot.
    private static func siblings(of path: String) -> [URL] {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent + "."
        let folder = url.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(stem) && $0 != url.lastPathComponent }.map { folder.appendingPathComponent($0) }
    }

    /// The staging file a staging name's file belongs to: itself, or the database of a sidecar.
    private static func stagingFile(of path: String) -> String {
        StoreFiles.sidecarSuffixes.first { path.hasSuffix($0) }.map { String(path.dropLast($0.count)) } ?? path
    }

    /// Whether `name` is a temporary name modelc writes under: `….modelc-<UUID>`, possibly
    /// followed by a sidecar suffix.
    static func isStagingName(_ name: String) -> Bool {
        guard let marker = name.range(of: ".modelc-", options: .backwards) else { return false }
        var rest = String(name[marker.upperBound...])
        for sidecar in StoreFiles.sidecarSuffixes where rest.hasSuffix(sidecar) { rest.removeLast(sidecar.count) }
        return UUID(uuidString: rest) != nil
    }
}
