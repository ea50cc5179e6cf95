import ArgumentParser
import Foundation
import GRDB
import ModelContext
import ModelSchema
import ModelStore

/// `modelc import`: objects in the shape `fetch --json` prints, inserted into a store through a
/// context and saved in one transaction, for seed stores and fixtures.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Insert objects from a JSON file (the shape 'modelc fetch --json' prints) into a store.",
        discussion: """
            FILE holds {"objects": [...]}, objects of any entities in one list, each {"id", "entity", \
            "attributes": {...}, "relationships": {...}} with values as 'modelc fetch --json' prints \
            them; the ids only link objects within the file. The store is opened with the version \
            of --model whose hashes match it, or created for the current version (or \
            --model-version) when it does not exist. Every object is inserted through one context \
            and saved in one transaction, validated as Core Data validates a save. A bad file \
            (unknown entity or key, a value of the wrong type, an id no object has, a validation \
            failure) is refused with its place in the file and Core Data's code, and the store is \
            left as it was (a store the command created is removed).

            JSON form: {"imported": N, "ids": {"<id in the file>": "<new object id>"}}.
            """
    )

    @Argument(help: "The store file (created when missing).", completion: .file())
    var store: String

    @Option(help: "The model of the store.", completion: .file())
    var model: String

    @Argument(help: "The JSON file of objects.", completion: .file())
    var file: String

    @Option(help: "The version a new store is created for (default: the current version).")
    var modelVersion: String?

    @Flag(help: "Print JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: store) {
            let report = try importObjects()
            if json {
                try JSONOutput.print(report)
            } else {
                print("imported \(report.imported) object\(report.imported == 1 ? "" : "s") into \(store)")
            }
        }
    }

    private func importObjects() throws -> ImportReport {
        let bundle = try ModelLoading.read(model)
        let objects = try ImportFile.read(file)
        let created = !FileManager.default.fileExists(atPath: store)
        let version: ModelVersion
        if created {
            guard let chosen = modelVersion.map({ bundle.version(named: $0) }) ?? bundle.currentVersion else {
                throw CommandFailure(
                    errorClass: "usage", code: "X020", message: "the model has no version '\(modelVersion ?? "")'", path: model,
                    exitCode: ExitCode.validationFailure.rawValue)
            }
            version = chosen
            try StoreCreator.create(at: store, version: version)
        } else {
            try StoreCheck.checkFile(store)
            let metadata = try StoreInfo.read(at: store).metadata
            let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
            guard let matched = match.matched else {
                throw StoreError(.incompatibleVersionHash, path: store, message: "no version of \(model) made this store (its entity hashes match none)")
            }
            version = matched
        }
        do {
            let database = try StoreError.mapping(path: store) { try DatabasePool(path: store, configuration: CoreDataFunctions.registering(in: Configuration())) }
            defer { try? database.close() }
            let coordinator = PersistentStoreCoordinator(model: ManagedObjectModel(version), database: database)
            let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return try context.performAndWait { try ObjectImporter(context: context, path: file).run(objects) }
        } catch {
            if created { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
            throw error
        }
    }
}

/// `import --json` output.
struct ImportReport: Encodable {
    var imported: Int
    var ids: [String: String]
}
