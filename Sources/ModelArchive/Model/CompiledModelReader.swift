import Foundation
import ModelSchema
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads compiled models: a `.momd` folder (every `.mom` and `VersionInfo.plist`) or a lone
/// `.mom`, into a ``ModelBundle`` whose versions decode each `.mom`.
public enum CompiledModelReader {
    public static func read(at path: String) throws -> ModelBundle {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let url = URL(fileURLWithPath: trimmed)
        let name = url.deletingPathExtension().lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: trimmed])
        }
        guard isDirectory.boolValue else {
            let version = try readMom(trimmed, name: name)
            return ModelBundle(name: name, path: trimmed, isVersioned: false, currentVersionName: name, versions: [version])
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: trimmed).filter { $0.hasSuffix(".mom") }
            .sorted { FinderOrder.precedes(String($0.dropLast(4)), String($1.dropLast(4))) }
        let versions = try files.map { try readMom("\(trimmed)/\($0)", name: String($0.dropLast(4))) }
        var current = versions.last?.name
        let info = "\(trimmed)/VersionInfo.plist"
        if FileManager.default.fileExists(atPath: info), let data = try contentsOfRegularFile(info) {
            current = try VersionInfo.decode([UInt8](data)).currentVersionName
        }
        return ModelBundle(name: name, path: trimmed, isVersioned: true, currentVersionName: current, versions: versions)
    }

    private static func readMom(_ path: String, name: String) throws -> ModelVersion {
        guard let data = try contentsOfRegularFile(path) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        return try ModelUnarchiver.version(from: [UInt8](data), name: name, path: path)
    }

    /// The file's bytes, or `nil` when it cannot be read; a FIFO, device or socket is refused
    /// before it is opened, since opening a FIFO blocks until a writer comes.
    private static func contentsOfRegularFile(_ path: String) throws -> Data? {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "not a regular file"])
        }
        return FileManager.default.contents(atPath: path)
    }
}
