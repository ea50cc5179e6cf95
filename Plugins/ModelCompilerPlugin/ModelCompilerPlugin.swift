import Foundation
import PackagePlugin

/// Compiles every Core Data model of a target with `modelc compile` at build time, so that the
/// compiled `.momd` (or `.mom`) lands in the target's resource bundle as Xcode's would; in a
/// target that depends on `ModelObjects`, also writes the entities' classes with `modelc
/// generate`, as Xcode's code generation does, for SwiftPM to compile into the target: with Core
/// Data's names and `@Managed` (`--api coredata`) when the target depends on the `CoreData` library.
///
/// The plugin only finds models and declares each one's exact input and output files; all
/// reading, checking and writing is `modelc compile`'s, so the build and the CLI cannot differ.
/// SwiftPM copies a declared output folder such as `Notes.momd` into the bundle whole, and
/// re-runs the command only when one of the model's files changes.
@main
struct ModelCompilerPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let models = try ModelSource.all(in: module.directoryURL)
        if models.isEmpty {
            Diagnostics.warning("target '\(target.name)' has no .xcdatamodeld or .xcdatamodel to compile")
        }
        let sourcePaths = Set(module.sourceFiles.map(\.url.standardizedFileURL.path))
        for model in models where sourcePaths.contains(model.url.standardizedFileURL.path) {
            let name = model.url.lastPathComponent
            Diagnostics.warning("'\(name)' is also a file of target '\(target.name)'; add it to the target's 'exclude:' list")
        }
        let modelc = try context.tool(named: "modelc").url
        let output = context.pluginWorkDirectoryURL
        // Generated classes need the object layer: a target without it gets the compiled model only.
        let dependencies = module.recursiveTargetDependencies.map(\.name)
        let generates = dependencies.contains("ModelObjects")
        let api = dependencies.contains("CoreData") ? "coredata" : "modelc"
        let options = try CompileOptions(in: module.directoryURL)
        return try models.flatMap { model in
            let compile = try model.compileCommand(modelc: modelc, outputDirectory: output, options: options)
            guard generates, !model.isMapping else { return [compile] }
            return [compile, try model.generateCommand(modelc: modelc, outputDirectory: output, api: api)]
        }
    }
}
