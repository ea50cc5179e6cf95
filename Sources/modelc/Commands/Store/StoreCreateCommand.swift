import ArgumentParser
import ModelSchema
import ModelStore
import ModelXML

/// `modelc store create`: an empty store as Core Data creates it for a model version.
struct StoreCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an empty store exactly as Core Data would for a model version.",
        discussion: """
            Writes the tables, columns, indexes, Z_PRIMARYKEY rows, Z_METADATA (store UUID, \
            version hashes, identifiers, digest and checksum) and Z_MODELCACHE that Core Data \
            writes when it first opens a store with that version, with its pragmas \
            (page_size 4096, auto_vacuum incremental, WAL journal). The store is built under a \
            temporary name and moved into place when complete; an existing file is never replaced.

            --framework-version picks the Core Data build to imitate (NSPersistenceFrameworkVersion): \
            builds before 900 write no hashes digest, before 1200 no checksum, before 800 the \
            older index names, before 600 no model cache.

            --persistent-history adds the tables a store opened with persistent history tracking \
            has (ACHANGE, ATRANSACTION, ATRANSACTIONSTRING and entities 16001-16003), as \
            Core Data build 1344 writes them; ACHANGE has a ZTOMBSTONEn BLOB column for each \
            attribute preserved on deletion of the entity that has the most.

            --configuration creates the store of one configuration of the model, as Core Data \
            does for a store description naming it: only that configuration's tables and \
            Z_PRIMARYKEY rows (with the model's entity numbers), and every entity's hashes in \
            the metadata.
            """
    )

    @Option(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    @Option(help: "The version to create the store for (default: the current version).")
    var modelVersion: String?

    @Option(help: "The Core Data build to imitate (NSPersistenceFrameworkVersion).")
    var frameworkVersion: Int = FrameworkVersion.current.number

    @Option(help: "The journal mode: wal (Core Data's default) or delete.")
    var journalMode: StoreCreator.JournalMode = .wal

    @Argument(help: "The store file to write; it must not exist.", completion: .file())
    var output: String

    @Option(help: "The configuration whose entities the store holds (default: every entity).")
    var configuration: String?

    @Flag(help: "Add the tables Core Data keeps for persistent history tracking (NSPersistentHistoryTrackingKey).")
    var persistentHistory = false

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print errors as JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: output) {
            let bundle = try ModelLoading.read(model, options: modelValidation.validation)
            let chosen = try ModelLoading.version(modelVersion, of: bundle)
            guard chosen.entityNames(inConfiguration: configuration) != nil else {
                throw CommandFailure.usage(
                    Diagnostic.unknownConfiguration(configuration ?? "", available: chosen.configurations.map(\.name)).inFile(bundle.path))
            }
            let layout = try StoreCreator.create(
                at: output, version: chosen, framework: FrameworkVersion(frameworkVersion), journalMode: journalMode,
                persistentHistory: persistentHistory, configuration: configuration)
            print("created \(output): version '\(chosen.name)', \(layout.entities.count.counting("entity", plural: "entities")), \(layout.schema.tables.count.counting("table"))")
        }
    }
}

extension StoreCreator.JournalMode: ExpressibleByArgument {}
