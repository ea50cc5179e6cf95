import ArgumentParser
import Foundation
import ModelCompiler
import ModelSchema

/// `modelc generate`: Xcode's NSManagedObject subclass generation, for the object layer.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the Swift classes of a model's entities, as Xcode's code generation does.",
        discussion: """
            Each entity gets what its Codegen setting (codeGenerationType) asks for: Class \
            Definition ("class") writes Class+CoreDataClass.swift (the class, a subclass of \
            ManagedObject or of its parent entity's class) and Class+CoreDataProperties.swift \
            (fetchRequest(), a typed property per attribute and relationship, the generated \
            accessors of each to-many); Category/Extension ("category") writes the properties \
            file only, for a class you write; Manual/None writes nothing. The class is the \
            entity's representedClassName without its module, or the entity's name; an entity \
            whose class is NSManagedObject gets none. Types follow Xcode's for Swift: numbers and \
            booleans with "Use Scalar Type" as non-optional scalars, others as NSNumber?; \
            decimals as Decimal?; strings, dates, data, UUIDs and URLs optional; transformables \
            as their custom class or NSObject?; to-manys as NSSet? or NSOrderedSet?. Properties \
            read and write through value(forKey:) and setValue(_:forKey:), since Swift on Linux \
            has no @NSManaged. The code imports ModelObjects: the target compiling it must \
            depend on that library.

            With --api coredata, the files are Xcode's own text for code that imports CoreData \
            (modelc's CoreData library where Apple's is absent): NSManagedObject, \
            NSFetchRequest, decimals as NSDecimalNumber?, each property as "@Managed public \
            var" where Xcode writes "@NSManaged public var", and each generated to-many \
            accessor as a body-less "@ManagedAccessor public func" where Xcode writes \
            "@NSManaged public func", without Xcode's @objc(…) lines. The build plugin chooses \
            it for a target that depends on the CoreData library.

            The current version is generated unless --model-version names another. The model \
            is validated first: errors stop the command and nothing is written. A file whose \
            text is unchanged is not rewritten, so builds that compile it do not redo work; \
            files of entities no longer generated are not removed. With --single-file, \
            everything goes into DIR/Name+CoreDataModel.swift (written even when no entity gets \
            code), which is what the build plugin compiles. A compiled model (.momd, .mom) \
            cannot be used: momc drops the codegen settings.

            JSON form: {"files":["DIR/Item+CoreDataClass.swift",…]}, the files of this run \
            whether rewritten or not.
            """
    )

    @Argument(help: "A .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the Swift files into (created if missing).")
    var output: String

    @Option(help: "Generate this version (the folder name without .xcdatamodel) instead of the current one.")
    var modelVersion: String?

    @Option(help: "The names the code uses: modelc (the ModelObjects library's) or coredata (Core Data's, with @Managed).")
    var api: GeneratedAPI = .modelc

    @Flag(help: "Write one file, DIR/Name+CoreDataModel.swift, instead of two per entity.")
    var singleFile = false

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print the files written (or the error) as JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: model) {
            let paths = try generate()
            if json {
                try JSONOutput.print(["files": paths])
            } else if !paths.isEmpty {
                print(paths.map { "generated \($0)" }.joined(separator: "\n"))
            }
        }
    }

    /// Reads and validates the model, then writes its classes; returns the files' paths.
    private func generate() throws -> [String] {
        guard !ModelSources.isCompiled(model) else {
            throw CommandFailure(
                errorClass: "usage", code: "X013",
                message: "a compiled model has no code generation settings (momc drops them)", path: model,
                advice: "Generate from the model's source, the .xcdatamodeld or .xcdatamodel it was compiled from.",
                exitCode: ExitCode.validationFailure.rawValue)
        }
        let bundle = try ModelLoading.read(model, options: modelValidation.validation)
        let version = try ModelLoading.version(modelVersion, of: bundle)
        let modelName = URL(fileURLWithPath: bundle.path).lastPathComponent
        let generator = ClassGenerator(version, modelName: modelName, api: api)
        let files = singleFile ? [generator.singleFile(named: bundle.name)] : generator.files()
        let directory = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try files.map { file in
                let url = directory.appendingPathComponent(file.name)
                let data = Data(file.contents.utf8)
                if (try? Data(contentsOf: url)) != data { try data.write(to: url, options: .atomic) }
                return url.path
            }
        } catch {
            throw CommandFailure(fileError: error, path: output)
        }
    }
}

/// `--api modelc|coredata`.
extension GeneratedAPI: ExpressibleByArgument {}
