import Foundation
import ModelSchema
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads compiled models as every Xcode shipped them: a `.momd` folder (every `.mom` and
/// `VersionInfo.plist`), a lone `.mom`, or an app bundle holding one of them; plists in binary
/// or XML form. An `.omo` (the optimized model beside the current `.mom`) is ignored: the `.mom`
/// holds the whole model.
public enum CompiledModelReader {
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The compiled model at `path`: a `.momd` (or a folder like one), a `.mom`, or a `.app`.
    public static func read(at path: String) throws -> ModelBundle {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: trimmed])
        }
        let name = URL(fileURLWithPath: trimmed).deletingPathExtension().lastPathComponent
        guard isDirectory.boolValue else {
            let version = try readMom(trimmed, name: name)
            return ModelBundle(name: name, path: trimmed, isVersioned: false, currentVersionName: name, versions: [version])
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: trimmed)
        if trimmed.hasSuffix(".app") { return try read(at: try modelInApp(trimmed, files: files)) }
        let moms = files.filter { $0.hasSuffix(".mom") }
            .sorted { FinderOrder.precedes(String($0.dropLast(4)), String($1.dropLast(4))) }
        let versions = try moms.map { try readMom("\(trimmed)/\($0)", name: String($0.dropLast(4))) }
        var current: String?
        let info = "\(trimmed)/VersionInfo.plist"
        if FileManager.default.fileExists(atPath: info), let data = try contentsOfRegularFile(info) {
            current = try VersionInfo.decode([UInt8](data)).currentVersionName
        }
        // Without a name, Core Data has no current version either (NSManagedObjectModelBundle
        // reads only that key); the only or last version in Finder order is what the source
        // reader picks for a bundle without `.xccurrentversion`, so a round trip keeps it.
        return ModelBundle(
            name: name, path: trimmed, isVersioned: true, currentVersionName: current ?? versions.last?.name,
            versions: versions, currentVersionIsInferred: current == nil)
    }

    /// The one compiled model of an app bundle: a `.momd` or `.mom` in the bundle's top folder
    /// (iOS) or in `Contents/Resources` (macOS).
    private static func modelInApp(_ app: String, files: [String]) throws -> String {
        let resources = "\(app)/Contents/Resources"
        let candidates = files.map { "\(app)/\($0)" }
            + ((try? FileManager.default.contentsOfDirectory(atPath: resources)) ?? []).map { "\(resources)/\($0)" }
        let models = candidates.filter { $0.hasSuffix(".momd") || $0.hasSuffix(".mom") }.sorted()
        guard models.count == 1 else {
            let found = models.map { URL(fileURLWithPath: $0).lastPathComponent }
            throw FormatError(description: found.isEmpty
                ? "the app bundle holds no compiled model (.momd or .mom)"
                : "the app bundle holds several compiled models (\(found.joined(separator: ", "))); name one")
        }
        return models[0]
    }

    /// One `.mom`, binary or XML, as the version `name`.
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
