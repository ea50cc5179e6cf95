import ArgumentParser
import Foundation
import GRDB
import ModelContext
import ModelSchema
import ModelStore

/// `modelc import`: objects in the shape `fetch --json` prints, inserted into a store through a
/// context, for seed stores and fixtures. The objects are saved in batches (``ObjectImporter``)
/// so that a large file needs no more objects in memory than a batch; the batches are saved on a
/// copy of the store beside it (``StoreStaging``), which replaces the store only when every
/// batch is saved, so a refused file leaves the store as it was.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Insert objects from a JSON file (the shape 'modelc fetch --json' prints) into a store.",
        discussion: """
            FILE holds {"objects": [...]}, objects of any entities in one list, each {"id", "entity", \
            "attributes": {...}, "relationships": {...}} with values as 'modelc fetch --json' prints \
            them; the ids only link objects within the file. The store is opened with the version \
            of --model whose hashes match it, or created for the current version (or \
            --model-version) when it does not exist. The objects are inserted through a context \
            and saved in batches of 1,000, each validated as Core Data validates a save, so that \
            memory does not grow with the number of objects (beyond the file's bytes and a table \
            of its ids: each object is parsed when needed). The batches are saved on a copy of \
            the store beside it (<store>.modelc-<UUID>), which takes the store's place only when \
            every batch is saved. A bad file (unknown entity or key, a value of the wrong type or out \
            of its type's range, a date not of the calendar, an id no object has, a link to an \
            object of another entity than the destination, a validation failure in any batch) is \
            refused with its place in the file and Core Data's code, and the store is left as it \
            was, with nothing beside it. \
            The store's write lock is held while the copy is made and filled, so other writers wait; a \
            copy a killed import or migration left is removed and listed.

            JSON form: {"imported": N, "ids": {"<id in the file>": "<new object id>"}, \
            "removedLeftovers": [paths]}.
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

    /// Objects per saved batch; hidden, for tests that need several batches from a small file.
    @Option(help: .hidden)
    var batchSize = 1000

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() throws {
        try CommandFailure.reporting(json: json, path: store) {
            let report = try importObjects()
            if json {
                try JSONOutput.print(report)
            } else {
                for file in report.removedLeftovers { print("removed, left by a killed run: \(file)") }
                print("imported \(report.imported) object\(report.imported == 1 ? "" : "s") into \(store)")
            }
        }
    }

    private func importObjects() throws -> ImportReport {
        let bundle = try ModelLoading.read(model)
        let objects = try ImportFile(file)
        let created = !FileManager.default.fileExists(atPath: store)
        let version: ModelVersion
        if created {
            guard let chosen = modelVersion.map({ bundle.version(named: $0) }) ?? bundle.currentVersion else {
                throw CommandFailure(
                    errorClass: "usage", code: "X020", message: "the model has no version '\(modelVersion ?? "")'", path: model,
                    exitCode: ExitCode.validationFailure.rawValue)
            }
            version = chosen
        } else {
            try StoreCheck.checkFile(store)
            let metadata = try StoreInfo.read(at: store).metadata
            let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
            guard let matched = match.matched else {
                throw StoreError(.incompatibleVersionHash, path: store, message: "no version of \(model) made this store (its entity hashes match none)")
            }
            version = matched
        }
        // Every batch is saved on a copy beside the store, put in its place only when all are.
        guard !created else { return try importObjects(objects, into: StoreStaging.new(for: store), creating: version) }
        // An existing store's write lock is held while the copy is made and filled: no other
        // writer's save is lost, and a copy a killed import left is known for what it is and removed.
        return try StoreStaging.changing(store) { staging, removed in
            var report = try importObjects(objects, into: staging.path, version: version)
            report.removedLeftovers = removed
            return report
        }
    }

    /// Imports `objects` into a new store made at `version` under `staging`'s name and puts it in
    /// the store's place; on any failure the copy is removed and nothing is left.
    private func importObjects(_ objects: ImportFile, into staging: StoreStaging, creating version: ModelVersion) throws -> ImportReport {
        do {
            try StoreCreator.create(at: staging.path, version: version)
            let report = try importObjects(objects, into: staging.path, version: version)
            try staging.commit()
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Imports `objects` into the store at `path` through a context, in batches, and closes the
    /// store (which checkpoints its `-wal` into it) once the context is gone.
    private func importObjects(_ objects: ImportFile, into path: String, version: ModelVersion) throws -> ImportReport {
        let database = try StoreError.mapping(path: store) { try DatabasePool(path: path, configuration: CoreDataFunctions.registering(in: Configuration())) }
        let report: ImportReport
        do {
            report = try run(objects, on: database, version: version)
        } catch {
            try? database.close()
            throw error
        }
        try StoreError.mapping(path: store) { try database.close() }
        return report
    }

    private func run(_ objects: ImportFile, on database: DatabasePool, version: ModelVersion) throws -> ImportReport {
        let coordinator = PersistentStoreCoordinator(model: ManagedObjectModel(version), database: database)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait { try ObjectImporter(context: context, path: file, batchSize: batchSize, reportsIDs: json).run(objects) }
    }
}

/// `import --json` output.
struct ImportReport: Encodable {
    var imported: Int
    var ids: [String: String]
    /// The copies killed imports or migrations had left beside the store, removed by this run.
    var removedLeftovers: [String] = []
}
