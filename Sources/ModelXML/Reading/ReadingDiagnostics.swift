import ModelSchema

/// The diagnostics of reading model files (`X0xx`).
extension Diagnostic {
    static func unreadableFile(_ reason: String) -> Self {
        .error("X001", "cannot read file: \(reason)")
    }

    static func malformedXML(_ message: String, at location: SourceLocation) -> Self {
        .error("X002", "malformed XML: \(message)", at: location)
    }

    static func entityDeclarationRefused(_ message: String, at location: SourceLocation) -> Self {
        .error("X003", message, at: location)
    }

    static func legacyFormat(_ version: String) -> Self {
        .error(
            "X004",
            "unsupported legacy format: '\(version)' is an Xcode 3 binary model (elements/layout); open and save it in Xcode 4 or later")
    }

    static func notAModel(_ root: String, at location: SourceLocation) -> Self {
        .error("X005", "not a Core Data model: root element is '\(root)', expected 'model'", at: location)
    }

    static func missingAttribute(_ attribute: String, on element: String, at location: SourceLocation) -> Self {
        .error("X006", "'\(element)' has no '\(attribute)' attribute", at: location)
    }

    static func unknownAttributeType(_ value: String, at location: SourceLocation) -> Self {
        .error("X007", "unknown attribute type '\(value)'", at: location)
    }

    static func unknownDeleteRule(_ value: String, at location: SourceLocation) -> Self {
        .error("X008", "unknown deletion rule '\(value)'", at: location)
    }

    static func invalidNumber(_ attribute: String, _ value: String, at location: SourceLocation) -> Self {
        .error("X009", "'\(attribute)' is not an integer: '\(value)'", at: location)
    }

    static func missingCurrentVersion(_ name: String, using fallback: String) -> Self {
        .warning("X010", ".xccurrentversion names '\(name)', which is not in the bundle; using '\(fallback)'")
    }

    public static func emptyBundle() -> Self {
        .error("X011", "model bundle has no .xcdatamodel versions")
    }

    static func noCurrentVersion(using fallback: String) -> Self {
        .warning("X012", ".xccurrentversion names no current version; using '\(fallback)'")
    }

    static func notFound(_ path: String) -> Self {
        .error("X013", "no model at '\(path)': expected a .xcdatamodeld folder, a .xcdatamodel folder or a contents file")
    }

    static func missingContents(_ version: String) -> Self {
        .error("X014", "version '\(version)' has no contents file")
    }

    static func nestedTooDeep(_ message: String, at location: SourceLocation) -> Self {
        .error("X018", message, at: location)
    }

    static func notRegularFile(_ kind: String) -> Self {
        .error("X019", "not a regular file (\(kind)): model files are read only from regular files")
    }

    /// A `--model-version` that names no version of the bundle.
    public static func unknownVersion(_ name: String, available: [String]) -> Self {
        .error("X015", "no version named '\(name)'; the bundle has \(available.map { "'\($0)'" }.joined(separator: ", "))")
    }

    /// A `--configuration` that names no configuration of the version.
    public static func unknownConfiguration(_ name: String, available: [String]) -> Self {
        .error("X021", "no configuration named '\(name)'; the version has " + (available.isEmpty ? "none" : available.map { "'\($0)'" }.joined(separator: ", ")))
    }

    /// A command line that does not parse, in ArgumentParser's words.
    public static func badCommandLine(_ message: String) -> Self {
        .error("X020", message)
    }

    /// A part of an Xcode 3 version (`elements`) that cannot be read, named by class or key.
    public static func unreadableXcode3Version(_ version: String, reason: String) -> Self {
        .error("X016", "cannot read Xcode 3 model '\(version)': \(reason)")
    }

    /// User-info values of an Xcode 3 version that are dictionaries, which the XML cannot hold.
    public static func droppedXcode3UserInfo(_ version: String, keys: [String]) -> Self {
        .warning("X017", "Xcode 3 model '\(version)': user-info values that are dictionaries are dropped (\(keys.joined(separator: ", ")))")
    }
}

/// The catalogue of reading diagnostics, for the docs and the uniqueness test.
public enum ReadingDiagnostics {
    public static let catalog: [DiagnosticDescriptor] = [
        .init("X001", .error, "a file of the model cannot be read"),
        .init("X002", .error, "a file is not well-formed XML"),
        .init("X003", .error, "a file declares XML entities (refused: the vehicle of XXE and expansion bombs)"),
        .init("X004", .error, "a version is in the pre-Xcode 4 binary format and no Xcode 3 reader is given"),
        .init("X005", .error, "the root element of contents is not <model>"),
        .init("X006", .error, "an element lacks a required attribute"),
        .init("X007", .error, "an attribute type is not one Core Data knows"),
        .init("X008", .error, "a deletion rule is not one Core Data knows"),
        .init("X009", .error, "a count or number attribute is not an integer"),
        .init("X010", .warning, ".xccurrentversion names a version that is not in the bundle"),
        .init("X011", .error, "a .xcdatamodeld folder holds no versions"),
        .init("X012", .warning, ".xccurrentversion names no current version"),
        .init("X013", .error, "the path is not a model"),
        .init("X014", .error, "a version folder has no contents file"),
        .init("X015", .error, "the requested version is not in the bundle"),
        .init("X016", .error, "a part of an Xcode 3 version (elements) cannot be read"),
        .init("X017", .warning, "user-info values of an Xcode 3 version that are dictionaries are dropped"),
        .init("X018", .error, "elements are nested deeper than any model nests them"),
        .init("X019", .error, "a model file is not a regular file (a FIFO, device, socket or folder)"),
        .init("X020", .error, "the command line does not parse"),
        .init("X021", .error, "the requested configuration is not in the version"),
    ]
}
