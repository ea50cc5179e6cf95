import Foundation
import ModelSchema

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
        if let data = FileManager.default.contents(atPath: "\(trimmed)/VersionInfo.plist") {
            current = try VersionInfo.decode([UInt8](data)).currentVersionName
        }
        return ModelBundle(name: name, path: trimmed, isVersioned: true, currentVersionName: current, versions: versions)
    }

    private static func readMom(_ path: String, name: String) throws -> ModelVersion {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        return try ModelUnarchiver.version(from: [UInt8](data), name: name, path: path)
    }
}
