import Foundation

/// Moves a store aside, with its `-wal`, `-shm`, `-journal` and external-data folder, under a
/// timestamped name beside it, so that the app starts afresh while nothing is lost. Nothing is
/// ever deleted.
public enum StoreQuarantine {
    /// Moves the store at `path` to `<name>.quarantined-<UTC time>.<extension>` (with its
    /// sidecars renamed to match) and returns the new path of the database.
    @discardableResult
    public static func quarantine(_ path: String, now: Date = Date()) throws -> String {
        let manager = FileManager.default
        guard manager.fileExists(atPath: path) else { throw StoreError.notFound(path: path) }
        try StoreCheck.checkNotLocked(path)
        let destination = SiblingName.free(for: path, tag: "quarantined", at: now)
        let files = StoreFiles(path: path)
        let moved = StoreFiles(path: destination)
        do {
            for sidecar in files.existingSidecars {
                try manager.moveItem(atPath: sidecar, toPath: destination + sidecar.dropFirst(path.count))
            }
            if files.hasSupportFolder { try manager.moveItem(atPath: files.supportFolder, toPath: moved.supportFolder) }
            try manager.moveItem(atPath: path, toPath: destination)
        } catch let error as CocoaError where error.code == .fileWriteNoPermission || error.code == .fileReadNoPermission {
            throw StoreError.permissionDenied(path: path, writing: true)
        }
        return destination
    }
}
