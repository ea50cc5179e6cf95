import Foundation
import ModelSchema

/// Reads models from disk: a `.xcdatamodeld` bundle with every version, a lone `.xcdatamodel`,
/// or a bare `contents` file.
///
/// Every problem becomes a diagnostic with the file's path and, where it has one, a line and a
/// column; reading goes on past problems so that one run reports them all.
///
/// ```swift
/// let result = ModelReader().read(at: "Models/Blog.xcdatamodeld")
/// for version in result.bundle?.versions ?? [] { print(version.name) }
/// ```
public struct ModelReader: Sendable {
    /// Reads an Xcode 3 version folder (`elements`/`layout`, no `contents`): given the path of
    /// its `elements` file and the version name. Those files are keyed archives, which another
    /// layer decodes; without a reader such a version is reported as X004.
    public typealias Xcode3VersionReader = @Sendable (_ elementsPath: String, _ name: String) -> (ModelVersion?, [Diagnostic])

    private let xcode3Reader: Xcode3VersionReader?

    public init(xcode3Reader: Xcode3VersionReader? = nil) {
        self.xcode3Reader = xcode3Reader
    }

    /// What reading produced: the bundle (when any version could be read) and the diagnostics.
    public struct Result: Sendable {
        public var bundle: ModelBundle?
        public var diagnostics: [Diagnostic]
    }

    public func read(at path: String) -> Result {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return Result(bundle: nil, diagnostics: [Diagnostic.notFound(path).inFile(path)])
        }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        switch url.pathExtension {
        case "xcdatamodeld" where isDirectory.boolValue:
            return readBundle(at: trimmed)
        case "xcdatamodel" where isDirectory.boolValue:
            return readLoneVersion(folder: trimmed)
        default:
            if !isDirectory.boolValue && url.lastPathComponent == "contents" {
                return readLoneVersion(folder: url.deletingLastPathComponent().path, contentsPath: trimmed)
            }
            return Result(bundle: nil, diagnostics: [Diagnostic.notFound(path).inFile(path)])
        }
    }

    /// Reads one version from the bytes of a `contents` file.
    public func readVersion(contents: [UInt8], name: String, path: String) -> (ModelVersion?, [Diagnostic]) {
        let reader = ModelDocumentReader(name: name, path: path)
        do {
            try XMLDocumentParser.parse(contents, into: reader)
        } catch {
            // What the reader saw of a malformed document is left unsaid: the XML error is the problem.
            return (nil, [Self.diagnostic(for: error).inFile(path)])
        }
        return (reader.version, reader.diagnostics.diagnostics.map { $0.inFile(path) })
    }

    // MARK: - Bundles

    private func readBundle(at path: String) -> Result {
        var diagnostics = [Diagnostic]()
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
            .sorted { FinderOrder.precedes(versionName($0), versionName($1)) }
        var versions = [ModelVersion]()
        // Version files are independent: each is parsed and read on its own core.
        for (version, found) in folders.concurrentMap({ readVersionFolder("\(path)/\($0)") }) {
            diagnostics += found
            if let version { versions.append(version) }
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard !folders.isEmpty else {
            return Result(bundle: nil, diagnostics: diagnostics + [Diagnostic.emptyBundle().inFile(path)])
        }
        var current = currentVersionName(bundlePath: path, diagnostics: &diagnostics)
        let fallback = versions.last?.name ?? ""
        if let named = current, !versions.contains(where: { $0.name == named }),
            !folders.contains("\(named).xcdatamodel")
        {
            diagnostics.append(Diagnostic.missingCurrentVersion(named, using: fallback).inFile("\(path)/.xccurrentversion"))
            current = nil
        }
        let bundle = ModelBundle(
            name: name, path: path, isVersioned: true, currentVersionName: current ?? versions.last?.name,
            versions: versions, currentVersionIsInferred: current == nil)
        return Result(bundle: versions.isEmpty ? nil : bundle, diagnostics: diagnostics)
    }

    private func readLoneVersion(folder: String, contentsPath: String? = nil) -> Result {
        let (version, diagnostics) = readVersionFolder(folder, contentsPath: contentsPath)
        guard let version else { return Result(bundle: nil, diagnostics: diagnostics) }
        let bundle = ModelBundle(
            name: version.name, path: folder, isVersioned: false, currentVersionName: version.name,
            versions: [version])
        return Result(bundle: bundle, diagnostics: diagnostics)
    }

    private func readVersionFolder(_ folder: String, contentsPath: String? = nil) -> (ModelVersion?, [Diagnostic]) {
        let name = URL(fileURLWithPath: folder).deletingPathExtension().lastPathComponent
        let contents = contentsPath ?? "\(folder)/contents"
        guard FileManager.default.fileExists(atPath: contents) else {
            if FileManager.default.fileExists(atPath: "\(folder)/elements") {
                if let xcode3Reader { return xcode3Reader("\(folder)/elements", name) }
                return (nil, [Diagnostic.legacyFormat(name).inFile("\(folder)/elements")])
            }
            return (nil, [Diagnostic.missingContents(name).inFile(folder)])
        }
        if let kind = FileBytes.nonRegularKind(atPath: contents) {
            return (nil, [Diagnostic.notRegularFile(kind).inFile(contents)])
        }
        guard let bytes = FileBytes.read(atPath: contents) else {
            return (nil, [Diagnostic.unreadableFile("permission denied or not a regular file").inFile(contents)])
        }
        return readVersion(contents: bytes, name: name, path: contents)
    }

    // MARK: - Current version

    /// The version `.xccurrentversion` names, without `.xcdatamodel`; warns when it names none.
    private func currentVersionName(bundlePath: String, diagnostics: inout [Diagnostic]) -> String? {
        let path = "\(bundlePath)/.xccurrentversion"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        if let kind = FileBytes.nonRegularKind(atPath: path) {
            diagnostics.append(Diagnostic.notRegularFile(kind).inFile(path))
            return nil
        }
        // An unreadable .xccurrentversion is as good as none: the last version is current.
        guard let bytes = FileBytes.read(atPath: path) else { return nil }
        let root: XMLElementNode
        do {
            root = try XMLDocumentParser.parse(bytes)
        } catch {
            diagnostics.append(Self.diagnostic(for: error).inFile(path))
            return nil
        }
        let entries = root.firstChild(named: "dict")?.children ?? []
        for (index, entry) in entries.enumerated()
        where entry.name == "key" && entry.text == "_XCCurrentVersionName" && index + 1 < entries.count {
            let value = entries[index + 1].text
            return value.hasSuffix(".xcdatamodel") ? String(value.dropLast(".xcdatamodel".count)) : value
        }
        diagnostics.append(Diagnostic.noCurrentVersion(using: lastVersionName(in: bundlePath)).inFile(path))
        return nil
    }

    private func lastVersionName(in bundlePath: String) -> String {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: bundlePath)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.map(versionName).sorted(by: FinderOrder.precedes)
        return folders.last ?? ""
    }

    /// A version folder's name without `.xcdatamodel`.
    private func versionName(_ folder: String) -> String {
        folder.hasSuffix(".xcdatamodel") ? String(folder.dropLast(".xcdatamodel".count)) : folder
    }

    static func diagnostic(for error: XMLParseError) -> Diagnostic {
        switch error.kind {
        case .malformed: .malformedXML(error.message, at: error.location)
        case .entityDeclaration: .entityDeclarationRefused(error.message, at: error.location)
        case .tooLarge: .unreadableFile(error.message)
        case .tooDeep: .nestedTooDeep(error.message, at: error.location)
        }
    }
}
