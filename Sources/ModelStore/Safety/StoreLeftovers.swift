import Foundation

/// What modelc leaves beside a store when a run is killed, and the backups it keeps there:
/// finds and removes temporary copies of dead runs, and old backups beyond a number to keep.
public enum StoreLeftovers {
    /// Removes the temporary files of runs killed while they wrote beside the store at `path`
    /// (`<name>.pre-….modelc-<UUID>`, a half-made backup, or `<name>.<ext>.modelc-<UUID>`, a
    /// half-made store, each with its `-journal`, `-wal` or `-shm`) and returns their paths.
    ///
    /// Call it only while holding the store's write lock: a modelc run writes such a file while
    /// it holds that lock, or claims it (``StagingClaim``, a backup copy waiting for its
    /// migration's commit to be named), so one present then and unclaimed was left by a run
    /// that died.
    @discardableResult
    public static func removeDeadRunFiles(beside path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        let owners = [url.deletingPathExtension().lastPathComponent + ".pre-", url.lastPathComponent + ".modelc-"]
        let removed = siblings(of: path).filter { file in
            let name = file.lastPathComponent
            return owners.contains { name.hasPrefix($0) } && isStagingName(name) && !StagingClaim.isClaimed(stagingFile(of: file.path))
        }.map(\.path)
        for file in removed { try? FileManager.default.removeItem(atPath: file) }
        return removed.sorted()
    }

    /// Removes all but the `count` newest backups made beside the store at `path` with `tag`
    /// (`<name>.<tag>-<time>.<extension>`), with their external-data folders; returns the
    /// removed paths.
    @discardableResult
    public static func pruneBackups(beside path: String, tag: String, keeping count: Int) -> [String] {
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
    public static func supportFolder(of path: String) -> String {
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
