import ArgumentParser
import Foundation
import ModelCompiler
import ModelMigration
import ModelSchema
import ModelStore
import ModelXML

/// `modelc migrate`: plans or runs the migration of a store to a model version: lightweight, through
/// a mapping model, or in stages.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store to a version of its model, in place, as Core Data's lightweight migration would.",
        discussion: """
            The store's version is found by its entity hashes; the migration then goes, as \
            Core Data's does, in ONE direct step from that version to the destination (the \
            current version, or --to), whatever the versions' names or order, inferred as Core \
            Data infers it (see 'modelc diff'). Each table is rewritten at most once, and a \
            table whose rows, columns and entity numbers do not change is not touched. \
            --through V2,V3 migrates in stages instead (store → V2 → V3 → destination, each a \
            direct step), like Apple's staged migration; when the direct step is impossible but \
            such stages would work, the plan says so and shows the --through option to use \
            (with --mapping, see below).

            The migration runs as SQL inside the store, each step in a savepoint of one \
            transaction: a failure at any point (a constraint the data violates, a full disk, \
            the process killed) leaves the store as it was. Afterwards the store's metadata, \
            model cache and schema are those of the destination version. Whether a new required \
            value is impossible is decided from the rows: it is only when rows lack the value.

            Before a real run the store is backed up with SQLite's online backup API (safe for \
            WAL stores), to --backup PATH or beside the store as NAME.pre-VERSION-TIME.EXT. A \
            run that would drop stored values is refused unless --allow-data-loss. A run that \
            does not migrate (refused, impossible, failed, killed) leaves no backup: the copy \
            is made before the first write and named only after the commit. Backups are kept \
            until you remove them; --keep-backups N keeps the N newest beside the store.

            A run holds the store's write lock from its first read to its commit: a second run \
            waits up to 5 seconds, then stops with class locked, or finds the store already \
            migrated. It checks what the step touches first (PRAGMA quick_check of the schema, \
            freelist and bookkeeping tables; pages it reads as it reads them: a damaged store is \
            refused with class corrupt, 259) and every table of the store's version (a missing \
            one is incompatibleSchema, 134020), and the tables it wrote (PRAGMA \
            integrity_check) before it commits. Temporary files a killed run left beside the store \
            (NAME.pre-….EXT.modelc-UUID and its -journal) are removed and listed, also when the \
            store is already current; a backup copy a run killed after its commit left under such \
            a name is named instead (namedBackups). A dry run waits up to 5 seconds too, for \
            another writer to let go before it copies the store. Errors print their class \
            and Core Data's code; an unknown --to or --through version is a usage error (X015).

            --dry-run runs the plan on a private copy and prints, per step, the changes, the \
            SQL, the rows touched, the values that would be dropped (counted from the store's \
            data) and a risk verdict (safe, dropsData, impossible); the store is not touched. \
            Rows whose entity number (Z_ENT) belongs to an entity of another table are a \
            warning with their count, table and number; every migration keeps them naming that \
            entity.

            JSON form: {"store", "storeVersion", "destination", "outcome", "risk", "backup", \
            "removedLeftovers", "namedBackups", "removedBackups", \
            "suggestedThrough", \
            "steps": [{"from", "to", "uses" ({"inferred": {}} or {"mappingModel": {"path"}}), "risk", "rowsTouched", "rewrittenTables", "dropped": \
            [{"entity", "property", "count"}], "foreignEntityRows": [{"table", "entityNumber", "entity", "count"}], "statements": [{"sql", "purpose"}], "mapping"}]}.

            --mapping PATH (repeatable: a .xcmappingmodel, a .cdm, or a folder searched for \
            both) offers custom mapping models: the direct step uses the first one whose entity \
            hashes match the store's version and the destination, as Core Data picks one, and is \
            run by the migration manager (create instances, relationships, validation) into a \
            new store beside the store (NAME.EXT.modelc-UUID), verified, then written into the \
            store's own file in one transaction; the store is kept (a copy) as NAME.pre-VERSION-TIME.EXT or \
            --backup PATH, with its external-data folder, unless --no-backup; --keep-backups \
            applies too. Without a matching one the step is inferred; when that is impossible but \
            stages through the bundle's versions work with the given mapping models, the plan \
            says so and prints the --through to use.

            --through V2,V3 with --mapping runs stages (store → V2 → V3 → destination), each \
            through the first mapping model whose entity hashes match its two versions, else \
            inferred, as one atomic chain: the stages run on a copy beside the store \
            (NAME.EXT.modelc-UUID) under the store's write lock, and only the destination is \
            written into the store's file, the original kept as the one backup; killed or failed at \
            any point, the store is the original or the destination, never a version between. \
            --dry-run shows each stage's mapping model or inference and its data-loss forecast. \
            JSON form: {"store", "storeVersion", "destination", "outcome", "risk", "backup", \
            "removedLeftovers", "namedBackups", "removedBackups", "stages": [{"from", "to", "uses", "risk", \
            "step" (an inferred stage's step, as above), "entityMappings"}]}.

            A mapping that names an entity migration policy (or calls \
            FUNCTION($entityPolicy, …)) needs the library with a registered Swift port: the \
            command stops before touching anything, names the class and the mapping, and exits \
            2. JSON form: {"store", "storeVersion", "destination", "outcome", "backup", \
            "removedLeftovers", "namedBackups", "removedBackups", "steps": [{"from", "to", "uses": {"mappingModel": {"path", \
            "reason"}}, "candidates", "entityMappings": [{"name", "type", "sourceEntity", \
            "destinationEntity", "instancesCreated", "relationshipsSet", "valuesDropped", \
            "validationFailures"}]}]}; --dry-run reports these counts from a private copy.

            --configuration NAME migrates the store of one configuration of the model, as Core \
            Data migrates a store whose description names it: the store's version is still found \
            by every entity's hashes, but the migration lays out and infers only that \
            configuration's entities (and their superentities), so that the store keeps only \
            their tables, with the model's entity numbers, and its metadata gets every entity's \
            hashes, as store create --configuration writes them. A store whose configuration's \
            entities already have the destination's hashes, tables and entity numbers is up to \
            date and left as it is, whatever the other entities' hashes; a change another \
            configuration's entity cannot be inferred for does not stop it. It applies to --mapping (entity mappings of other \
            entities find no instances) and --through alike. Afterwards store check \
            --configuration NAME is clean. A name the destination version does not have is a \
            usage error (X021) before anything is read.

            EXIT STATUS
              0   migrated, up to date, or (dry run) safe
              2   impossible, drops data (dry run), or refused because it would drop data
              1   failed (the store is left as it was), or the model or store could not be read
              64  usage error (an unknown --to or --through version, or --configuration name)
            """
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The model: a .xcdatamodeld bundle.", completion: .file())
    var model: String

    @Option(
        name: .customLong("mapping"),
        help: ArgumentHelp("A mapping model (.xcmappingmodel, .cdm) or a folder of them; repeatable.", valueName: "PATH"),
        completion: .file())
    var mappings: [String] = []

    @Option(name: .customLong("to"), help: "The destination version (default: the current version).")
    var destination: String?

    @Option(help: "The configuration the store was added for (only its entities are migrated); every entity when omitted.")
    var configuration: String?

    @Option(
        help: ArgumentHelp(
            "Migrate in stages through these versions, in this order (comma-separated); default: one direct step.",
            valueName: "V2,V3"))
    var through: String?

    @Flag(help: "Plan on a private copy and print the plan; the store is not changed.")
    var dryRun = false

    @Option(help: "Where to write the backup made before a real run.", completion: .file())
    var backup: String?

    @Flag(help: "Do not back the store up first (you have your own backup).")
    var noBackup = false

    @Option(help: ArgumentHelp("After a successful run, keep only the N newest backups beside the store (default: all).", valueName: "N"))
    var keepBackups: Int?

    @Flag(help: "Run even when the migration drops stored values.")
    var allowDataLoss = false

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    /// The versions of `--through`, in order.
    var stages: [String] {
        through.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
    }

    func validate() throws {
        if let keepBackups, keepBackups < 1 { throw ValidationError("--keep-backups must be at least 1") }
    }

    func run() throws {
        try CommandFailure.reporting(json: json, path: store, migrate)
    }

    private func migrate() throws {
        let bundle = try ModelLoading.read(model, options: modelValidation.validation)
        for name in [destination].compactMap({ $0 }) + stages {
            // An unknown version is a usage error, reported as every command reports one (X015).
            _ = try ModelLoading.version(name, of: bundle)
        }
        // So is a configuration the destination lacks, as for `store create` (X021).
        let end = try ModelLoading.version(destination, of: bundle)
        guard end.entityNames(inConfiguration: configuration) != nil else {
            throw CommandFailure.usage(Diagnostic.unknownConfiguration(configuration ?? "", available: end.configurations.map(\.name)).inFile(bundle.path))
        }
        if !mappings.isEmpty && !stages.isEmpty { return try migrateInStages(bundle) }
        if try migrateThroughMappingModel(bundle) { return }
        var options = Migrator.Options()
        options.mappingModels = MappingModelFinder.readAll(in: mappings).models
        options.destination = destination
        options.through = stages
        options.dryRun = dryRun
        options.backupPath = backup
        options.makesBackup = !noBackup
        options.allowsDataLoss = allowDataLoss
        options.keepBackups = keepBackups
        options.configuration = configuration
        if !quiet && isatty(STDERR_FILENO) != 0 {
            options.progress = { line in FileHandle.standardError.write(Data("\(line)\n".utf8)) }
        }
        let result: Migrator.Result
        do {
            result = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
        } catch let error as MigrationError {
            throw CommandFailure(error)
        }
        let report = MigrationReport(result, model: model, mappings: mappings, configuration: configuration)
        if json {
            try JSONOutput.print(report)
        } else if !quiet {
            for step in result.steps { DiagnosticPrinter.standardError.print(step.mapping.diagnostics) }
            report.printText(showSQL: dryRun)
        }
        switch result.outcome {
        case .impossible, .refusedDataLoss: throw ExitCode(2)
        case .planned where result.risk != .safe: throw ExitCode(2)
        default: break
        }
    }
}

extension CommandFailure {
    /// A migration failure, with its class, Core Data's code and advice.
    init(_ error: MigrationError) {
        self.init(
            errorClass: "\(error.errorClass)", code: String(error.code), message: error.message, path: error.path, advice: error.advice)
    }
}
