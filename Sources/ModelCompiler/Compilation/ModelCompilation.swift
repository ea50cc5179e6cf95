import Foundation
import ModelArchive
import ModelSchema
import ModelXML

/// The compile pipeline: read → validate → hash → emit, as momc does.
///
/// A `.xcdatamodeld` becomes `DIR/Name.momd/` with one `.mom` per version and
/// `VersionInfo.plist`; a lone `.xcdatamodel` becomes `DIR/Name.mom`. Errors stop the compile
/// before anything is written; warnings do not. The same input always gives the same bytes.
/// No `.omo` is written: Core Data falls back to the `.mom` when it is absent.
///
/// ```swift
/// let result = try ModelCompilation.compile(modelAt: "Models/Library.xcdatamodeld", into: "Out")
/// print(result.outputPath ?? "failed")
/// ```
public enum ModelCompilation {
    public struct Options: Sendable {
        /// The Xcode whose momc to emulate: compiler identity in the `.mom` files, version
        /// checksums in `VersionInfo.plist` or not.
        public var compilerVersion: CompilerVersion
        /// The rules momc's switches relax.
        public var validation: ModelValidator.Options

        public init(compilerVersion: CompilerVersion = .newestVerified, validation: ModelValidator.Options = ModelValidator.Options()) {
            self.compilerVersion = compilerVersion
            self.validation = validation
        }
    }

    public struct Result: Sendable {
        public var diagnostics: [Diagnostic]
        /// What was written (`DIR/Name.momd` or `DIR/Name.mom`), or `nil` when errors stopped it.
        public var outputPath: String?
    }

    /// The files of a compiled bundle, by path relative to the output folder.
    public static func products(of bundle: ModelBundle, options: Options = Options()) -> [(path: String, bytes: [UInt8])] {
        let archiveOptions = ModelArchiver.Options(compilerVersion: options.compilerVersion)
        guard bundle.isVersioned else {
            return [("\(bundle.name).mom", ModelArchiver.archive(bundle.versions[0], options: archiveOptions))]
        }
        // Versions are independent: each is archived and hashed on its own core.
        let compiled = bundle.versions.concurrentMap { version in
            let hasher = VersionHasher(version)
            let entityHashes = hasher.entityHashes()
            return (
                mom: ModelArchiver.archive(version, options: archiveOptions), hashes: entityHashes,
                checksum: hasher.versionChecksum(entityHashes))
        }
        var files = [(path: String, bytes: [UInt8])]()
        var hashes = [String: [String: VersionHash]]()
        var checksums = [String: String]()
        for (version, result) in zip(bundle.versions, compiled) {
            files.append(("\(bundle.name).momd/\(version.name).mom", result.mom))
            hashes[version.name] = result.hashes
            checksums[version.name] = result.checksum
        }
        // momc names the current version only when the source bundle has a `.xccurrentversion`.
        let info = VersionInfo(
            currentVersionName: bundle.currentVersionIsInferred ? nil : bundle.currentVersion?.name,
            versionHashes: hashes,
            versionChecksums: options.compilerVersion.writesVersionChecksums ? checksums : nil)
        files.append(("\(bundle.name).momd/VersionInfo.plist", info.encoded()))
        return files
    }

    /// Reads, validates and compiles the model at `path` into the folder `outputDirectory`.
    public static func compile(modelAt path: String, into outputDirectory: String, options: Options = Options()) throws -> Result {
        let read = ModelSources.reader.read(at: path)
        var diagnostics = read.diagnostics
        guard let bundle = read.bundle, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            return Result(diagnostics: diagnostics, outputPath: nil)
        }
        diagnostics += ModelValidator(options: options.validation).validate(bundle)
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            return Result(diagnostics: diagnostics, outputPath: nil)
        }
        let files = products(of: bundle, options: options)
        let product = bundle.isVersioned ? "\(bundle.name).momd" : "\(bundle.name).mom"
        try write(files, product: product, into: outputDirectory)
        return Result(diagnostics: diagnostics, outputPath: "\(outputDirectory)/\(product)")
    }

    /// Writes the product into a staging folder beside it, then swaps it into place, so that an
    /// interrupted compile never leaves a half-written bundle.
    static func write(_ files: [(path: String, bytes: [UInt8])], product: String, into outputDirectory: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        let staging = "\(outputDirectory)/.\(product).modelc-\(UUID().uuidString)"
        try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: staging) }
        for file in files {
            let target = "\(staging)/\(file.path)"
            try manager.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try writeFile(file.bytes, to: target)
        }
        let final = "\(outputDirectory)/\(product)"
        if manager.fileExists(atPath: final) { try manager.removeItem(atPath: final) }
        try manager.moveItem(atPath: "\(staging)/\(product)", toPath: final)
    }

    /// Writes `bytes` to a new file at `path` with stdio. Foundation's file writes end with an
    /// fsync, which made up several percent of a large compile's time; the staging folder
    /// already keeps an interrupted compile from leaving a partial product, and compilers do not
    /// sync their output either.
    private static func writeFile(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        guard fclose(file) == 0, written == bytes.count else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
