import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file system a store lives on: a load that must write (create, migrate, quarantine, open
/// for writing) fails before it starts with `readOnlyVolume` on a volume mounted read-only, and
/// with `permissionDenied` (513) when the user cannot write the store or its folder.
enum Volume {
    /// Throws `readOnlyVolume` (642) when the folder of `path` is on a read-only mount, and
    /// `permissionDenied` (513) when the folder, or the store when it exists, is not writable.
    static func requireWritable(folderOf path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return }
        if info.f_flag & UInt(ST_RDONLY) != 0 {
            throw PersistentStoreLoadError(.readOnlyVolume, path: path, message: "the store's volume is mounted read-only")
        }
        let store = FileManager.default.fileExists(atPath: path) ? [path] : []
        for file in [folder.isEmpty ? "." : folder] + store where access(file, W_OK) != 0 {
            throw PersistentStoreLoadError(.permissionDenied, code: 513, path: path, message: "no permission to write \(file)")
        }
    }
}
