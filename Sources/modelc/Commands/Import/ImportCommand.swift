import ArgumentParser
import Foundation
import GRDB
import ModelObjects
import ModelSchema
import ModelStore

/// `modelc import`: objects in the shape `fetch --json` prints, inserted into a store through a
/// context, for seed stores and fixtures. The objects are saved in batches (``ObjectImporter``)
/// so that a large file needs no more objects in memory than a batch; the batches are saved in
/// place in one transaction that holds the store's write lock (``StoreTransaction``), so a
/// refused file leaves the store as it was and other writers wait rather than lose a row; a
/// store that does not exist is made whole beside its path first (``StoreStaging``).
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
            of its ids: each object is parsed when needed). The batches are saved in place in \
            one transaction, which holds the store's write lock from the first read to the \
            commit: other writers wait for it (the import waits up to 5 seconds for another \
            writer, then stops with class locked), and readers see all of it or none. A bad file \
            (unknown entity or key, a value of the wrong type or out of its type's range, a date \
            not of the calendar, an id no object has, a link to an object of another entity than \
            the destination, a validation failure in any batch) is refused with its place in the \
            file and Core Data's code, and the store is left as it was, with nothing beside it. A \
            new store is filled under a staging name (<store>.modelc-<UUID>) and named only when \
            whole. Files a killed import or migration left are removed and listed, and a backup a \
            migration killed after its commit left unnamed is named and listed.

            JSON form: {"imported": N, "ids": {"<id in the file>": "<new object id>"}, \
            "removedLeftovers": [paths], "namedBackups": [paths]}.
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

    @OptionGroup var modelValidation: ModelValidationOptions

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
                for file in report.namedBackups { print("named the backup a killed migration left: \(file)") }
                print("imported \(report.imported) object\(report.imported == 1 ? "" : "s") into \(store)")
            }
        }
    }

    private func importObjects() throws -> ImportReport {
        let bundle = try ModelLoading.read(model, options: modelValidation.validation)
        let objects = try ImportFile(file)
        guard FileManager.default.fileExists(atPath: store) else { return try importIntoNewStore(objects, bundle) }
        try StoreCheck.checkFile(store)
        // In place, in one transaction that holds the store's write lock from the first read to
        // the commit: other writers wait, the version read is the one written, and a failure in
        // any batch rolls every batch back.
        return try StoreTransaction.run(store, configuration: CoreDataFunctions.registering(in: Configuration())) { database in
            let metadata = try database.read { try StoreMetadata.required(from: $0, path: store) }
            let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
            guard let version = match.matched else {
                throw StoreError(.incompatibleVersionHash, path: store, message: "no version of \(model) made this store (its entity hashes match none)")
            }
            try database.read { try StoreCheck.checkColumns(of: version, in: $0, path: store) }
            var report = try run(objects, on: database, version: version)
            // Under the lock, once the import has succeeded: only then is what is removed listed.
            let cleanup = StoreLeftovers.cleanUp(beside: store, storeHashes: metadata.versionHashes)
            report.removedLeftovers = cleanup.removed
            report.namedBackups = cleanup.namedBackups
            return report
        }
    }

    /// Imports `objects` into a new store of the current version (or `--model-version`), made
    /// whole under a staging name beside the store and then given its name; on any failure the
    /// staging file is removed and nothing is left.
    private func importIntoNewStore(_ objects: ImportFile, _ bundle: ModelBundle) throws -> ImportReport {
        guard let version = modelVersion.map({ bundle.version(named: $0) }) ?? bundle.currentVersion else {
            throw CommandFailure(
                errorClass: "usage", code: "X020", message: "the model has no version '\(modelVersion ?? "")'", path: model,
                exitCode: ExitCode.validationFailure.rawValue)
        }
        let staging = try StoreStaging.new(for: store, version: version)
        do {
            let report = try StoreTransaction.run(staging.path, configuration: CoreDataFunctions.registering(in: Configuration())) { database in
                try run(objects, on: database, version: version)
            }
            try staging.commit()
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Runs the import through a context whose coordinator saves on `database`.
    private func run(_ objects: ImportFile, on database: DatabaseQueue, version: ModelVersion) throws -> ImportReport {
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
    /// The files killed imports or migrations had left beside the store, removed by this run.
    var removedLeftovers: [String] = []
    /// Backups a migration killed after its commit had left unnamed, named by this run.
    var namedBackups: [String] = []
}
