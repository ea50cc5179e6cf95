import Foundation
import PackagePlugin

/// One model in a target's folder: a `.xcdatamodeld` bundle, a lone `.xcdatamodel`, or a
/// `.xcmappingmodel` (a custom mapping model, compiled into `Name.cdm` as Xcode's build does).
struct ModelSource {
    /// The `.xcdatamodeld`, `.xcdatamodel` or `.xcmappingmodel` folder.
    var url: URL

    var isVersioned: Bool { url.pathExtension == "xcdatamodeld" }
    var isMapping: Bool { url.pathExtension == "xcmappingmodel" }

    /// What `modelc compile` writes: `Name.momd` (a folder) for a bundle, `Name.mom` for a lone
    /// version, `Name.cdm` for a mapping model.
    var productName: String {
        url.deletingPathExtension().lastPathComponent + (isMapping ? ".cdm" : isVersioned ? ".momd" : ".mom")
    }

    /// Every model under `directory`, in path order; the versions inside a bundle are not models of their own.
    static func all(in directory: URL) throws -> [ModelSource] {
        let keys: [URLResourceKey] = [.isDirectoryKey]
        guard let walker = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return [] }
        var models = [ModelSource]()
        for case let url as URL in walker {
            guard ["xcdatamodeld", "xcdatamodel", "xcmappingmodel"].contains(url.pathExtension),
                try url.resourceValues(forKeys: Set(keys)).isDirectory == true
            else { continue }
            models.append(ModelSource(url: url))
            walker.skipDescendants()
        }
        return models.sorted { $0.url.path < $1.url.path }
    }

    /// The files `modelc compile` reads: each version's `contents` (or an Xcode 3 version's
    /// `elements`) and the bundle's `.xccurrentversion`, or a mapping model's `xcmapping.xml`.
    ///
    /// Only files that exist are listed, so a version without `contents` reaches modelc, which
    /// reports it (X014), instead of stopping the build with a bare "missing input".
    func inputFiles() throws -> [URL] {
        let manager = FileManager.default
        if isMapping { return [url.appending(path: "xcmapping.xml")].filter { manager.fileExists(atPath: $0.path) } }
        let versions = isVersioned
            ? try manager.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
                .map { url.appending(path: $0) }
            : [url]
        let current = isVersioned ? [url.appending(path: ".xccurrentversion")] : []
        return (versions.flatMap { [$0.appending(path: "contents"), $0.appending(path: "elements")] } + current)
            .filter { manager.fileExists(atPath: $0.path) }
    }

    /// The build command that compiles this model into `outputDirectory`, with the target's
    /// `options`.
    ///
    /// The model's path is absolute, so modelc's diagnostics name the file wherever the build runs.
    func compileCommand(modelc: URL, outputDirectory: URL, options: CompileOptions) throws -> Command {
        .buildCommand(
            displayName: "Compiling Core Data model \(url.lastPathComponent)",
            executable: modelc,
            arguments: ["compile", url.path, "--output", outputDirectory.path] + options.arguments,
            inputFiles: try inputFiles() + [options.file].compactMap { $0 },
            outputFiles: [outputDirectory.appending(path: productName)]
        )
    }

    /// The build command that writes the Swift classes of this model's entities (those whose
    /// codegen is Class Definition or Category/Extension) into one file under `outputDirectory`,
    /// which SwiftPM then compiles into the target, with the names of `api` (`modelc`, `coredata`).
    func generateCommand(modelc: URL, outputDirectory: URL, api: String) throws -> Command {
        let name = url.deletingPathExtension().lastPathComponent
        let folder = outputDirectory.appending(path: "\(name)Classes")
        return .buildCommand(
            displayName: "Generating classes of Core Data model \(url.lastPathComponent)",
            executable: modelc,
            arguments: ["generate", url.path, "--output", folder.path, "--single-file", "--api", api],
            inputFiles: try inputFiles(),
            outputFiles: [folder.appending(path: "\(name)+CoreDataModel.swift")]
        )
    }
}
