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
        if LockProbe.isWriteLocked(path) {
            throw StoreError(.locked, path: path, message: "another process is writing to the store", sqliteCode: 5)
        }
        let destination = freeName(for: path, at: now)
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

    /// A destination name no file uses yet.
    static func freeName(for path: String, at date: Date) -> String {
        let url = URL(fileURLWithPath: path)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        let folder = url.deletingLastPathComponent()
        var candidate = folder.appendingPathComponent("\(stem).quarantined-\(formatter.string(from: date))\(suffix)").path
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = folder.appendingPathComponent("\(stem).quarantined-\(formatter.string(from: date))-\(counter)\(suffix)").path
            counter += 1
        }
        return candidate
    }
}
