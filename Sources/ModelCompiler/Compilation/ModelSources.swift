import Foundation
import ModelArchive
import ModelSchema
import ModelXML

/// Reading source models of every Xcode era: today's `contents` XML through ModelXML's `ModelReader`,
/// and Xcode 3 versions (`elements`/`layout`) through ModelArchive's `Xcode3ModelReader`, so
/// that a long-lived bundle with an Xcode 3 first version reads, validates and compiles whole.
///
/// ModelXML does not know keyed archives (its layer sits below ModelArchive); this is where the
/// two meet, for the compiler and for every command that loads a model.
public enum ModelSources {
    /// The reader every command uses.
    public static let reader = ModelReader(xcode3Reader: readXcode3Version)

    /// Whether `path` is a compiled model (`.momd`, `.mom`, an app bundle, or a folder holding a
    /// `VersionInfo.plist`, as `*.momd_precompiled` copies are) rather than a source model.
    public static func isCompiled(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return [".momd", ".mom", ".app"].contains { trimmed.hasSuffix($0) }
            || FileManager.default.fileExists(atPath: "\(trimmed)/VersionInfo.plist")
    }

    /// The model at `path`, compiled (``isCompiled(_:)``) or source; an unreadable compiled
    /// model is one X001 error.
    public static func read(anyAt path: String) -> (bundle: ModelBundle?, diagnostics: [Diagnostic]) {
        guard isCompiled(path) else {
            let result = reader.read(at: path)
            return (result.bundle, result.diagnostics)
        }
        do {
            return (try CompiledModelReader.read(at: path), [])
        } catch {
            return (
                nil, [Diagnostic(severity: .error, code: "X001", message: "cannot read compiled model: \(error)", path: path)])
        }
    }

    /// One Xcode 3 version from its `elements` file; an unreadable part is reported by its class
    /// or key (X016).
    @Sendable static func readXcode3Version(elementsPath: String, name: String) -> (ModelVersion?, [Diagnostic]) {
        guard let data = FileManager.default.contents(atPath: elementsPath) else {
            return (nil, [Diagnostic.error("X001", "cannot read file: permission denied or not a regular file").inFile(elementsPath)])
        }
        do {
            let reading = try Xcode3ModelReader.read(elements: [UInt8](data), name: name, path: elementsPath)
            let notes = reading.droppedUserInfoKeys.isEmpty
                ? [] : [Diagnostic.droppedXcode3UserInfo(name, keys: reading.droppedUserInfoKeys).inFile(elementsPath)]
            return (reading.version, notes)
        } catch {
            return (nil, [Diagnostic.unreadableXcode3Version(name, reason: "\(error)").inFile(elementsPath)])
        }
    }
}
