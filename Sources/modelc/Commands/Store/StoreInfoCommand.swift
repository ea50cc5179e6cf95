import ArgumentParser
import Foundation
import ModelArchive
import ModelSchema
import ModelStore
import ModelXML

/// `modelc store info`: what a store holds and which model version made it.
struct StoreInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a store's metadata, tables and row counts, and which model version made it.",
        discussion: """
            With --model, the store's entity version hashes are compared with every version of \
            the model: the version whose hashes are all equal made the store. When none is, the \
            nearest version (most equal hashes) is shown with the entities that differ. For the \
            version that made the store, the store's tables, columns, indexes and entity numbers \
            are compared with how the store's own Core Data build lays that version out \
            (Documentation/Stores.md); what differs (left by in-place migrations) is listed.

            --dump-model DIR writes the model the store carries in Z_MODELCACHE as DIR/NAME.xcdatamodeld \
            (NAME is the store's file name without extension): the way back to a model version \
            whose source was lost.

            JSON form: {"path", "uuid", "frameworkVersion", "journalMode", "versionIdentifiers", \
            "entities": {"Entity": "<hex>"}, "tables": [{"name", "rows"}], "matchedVersion": name or null, \
            "nearestVersion": name or null, "differences": [{"entity", "change"}], \
            "schemaDifferences": ["..."]}.
            """
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "A model whose versions are matched against the store.", completion: .file())
    var model: String?

    @Option(help: "Write the store's own model (from Z_MODELCACHE) into this folder.", completion: .directory)
    var dumpModel: String?

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: store, show)
    }

    /// Reads the store (and the model, validated), prints what it holds, dumps its model if asked.
    private func show() throws {
        let info = try StoreInfo.read(at: store)
        let match = try model.map { VersionMatch(
                storeHashes: info.metadata.versionHashes, identifiers: info.metadata.versionIdentifiers,
                bundle: try ModelLoading.read($0, options: modelValidation.validation)) }
        let report = StoreInfoReport(info: info, match: match)
        if json {
            try JSONOutput.print(report)
        } else {
            report.printText()
        }
        if let dumpModel { try dump(into: dumpModel) }
    }

    private func dump(into folder: String) throws {
        let name = URL(fileURLWithPath: store).deletingPathExtension().lastPathComponent
        let target = "\(folder)/\(name).xcdatamodeld"
        guard !FileManager.default.fileExists(atPath: target) else { throw StoreError.alreadyExists(path: target) }
        guard let archive = try StoreModelCache.archive(at: store) else {
            throw StoreError(.missingSourceModel, path: store, message: "the store has no model cache (Z_MODELCACHE) to dump")
        }
        let version = try ModelUnarchiver.version(from: archive, name: name, path: target)
        let bundle = ModelBundle(name: name, path: target, isVersioned: true, currentVersionName: name, versions: [version])
        let written = try ModelBundleWriter.write(bundle, into: folder)
        FileHandle.standardError.write(Data("wrote the store's model to \(written)\n".utf8))
    }
}

/// `store info` output, text or JSON.
struct StoreInfoReport: Encodable {
    var path: String
    var uuid: String?
    var frameworkVersion: Int?
    var journalMode: String
    var versionIdentifiers: [String]
    var entities: [String: String]
    var tables: [StoreInfo.Table]
    var modelGiven: Bool
    var matchedVersion: String?
    var nearestVersion: String?
    var differences: [EntityDifference]
    /// How the store's tables differ from Core Data's layout of the matched version.
    var schemaDifferences: [String]
    /// Why the matched version cannot read the store's objects (a table lacks one of its
    /// columns), as `fetch`, `history` and `import` report it; nil when it can.
    var schemaError: SchemaError?

    /// A store error as `--json` prints it: its class, Core Data code and message.
    struct SchemaError: Encodable {
        var `class`: String
        var code: Int
        var message: String
    }

    init(info: StoreInfo, match: VersionMatch?) {
        path = info.path
        uuid = info.metadata.uuid
        frameworkVersion = info.metadata.frameworkVersion
        journalMode = info.journalMode
        versionIdentifiers = info.metadata.versionIdentifiers
        entities = info.metadata.versionHashes.mapValues(\.hex)
        tables = info.tables
        modelGiven = match != nil
        matchedVersion = match?.matched?.name
        nearestVersion = match?.matched == nil ? match?.nearest?.name : nil
        differences = match?.differences ?? []
        schemaDifferences = match?.matched.map { info.schemaDifferences(from: $0).map(\.description) } ?? []
        schemaError = match?.matched.flatMap { version in
            do {
                try StoreCheck.checkTables(of: version, framework: info.metadata.framework, schema: info.schema, path: info.path, columnsOnly: true)
                return nil
            } catch {
                return (error as? StoreError).map { SchemaError(class: $0.errorClass.rawValue, code: $0.code, message: $0.message) }
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case path, uuid, frameworkVersion, journalMode, versionIdentifiers, entities, tables
        case matchedVersion, nearestVersion, differences, schemaDifferences, schemaError
    }

    /// Writes every key, `null` included, so that scripts can rely on `matchedVersion`.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(uuid, forKey: .uuid)
        try container.encode(frameworkVersion, forKey: .frameworkVersion)
        try container.encode(journalMode, forKey: .journalMode)
        try container.encode(versionIdentifiers, forKey: .versionIdentifiers)
        try container.encode(entities, forKey: .entities)
        try container.encode(tables, forKey: .tables)
        try container.encode(matchedVersion, forKey: .matchedVersion)
        try container.encode(nearestVersion, forKey: .nearestVersion)
        try container.encode(differences, forKey: .differences)
        try container.encode(schemaDifferences, forKey: .schemaDifferences)
        try container.encode(schemaError, forKey: .schemaError)
    }

    func printText() {
        print("store        \(path)")
        print("uuid         \(uuid ?? "-")")
        print("core data    \(frameworkVersion.map(String.init) ?? "-") (NSPersistenceFrameworkVersion)")
        print("journal      \(journalMode)")
        print("identifiers  \(versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))")
        print("entities     \(entities.count)")
        print("tables")
        let width = tables.map(\.name.count).max() ?? 0
        for table in tables {
            print("  \(table.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(table.rows.counting("row"))")
        }
        guard modelGiven else { return }
        if let matchedVersion {
            print("version      '\(matchedVersion)' (all \(entities.count) entity hashes equal)")
            let build = frameworkVersion.map { "build \($0)" } ?? "Core Data"
            print("layout       \(schemaDifferences.isEmpty ? "as \(build) lays out this version" : "differs from how \(build) lays out this version:")")
            for difference in schemaDifferences { print("  \(difference)") }
            if let schemaError { print("objects      unreadable: \(schemaError.message) [\(schemaError.class), \(schemaError.code)]") }
            return
        }
        print("version      none of the model's versions made this store")
        if let nearestVersion {
            print("nearest      '\(nearestVersion)'; these entities differ:")
            let width = differences.map(\.entity.count).max() ?? 0
            for difference in differences {
                let what =
                    switch difference.change {
                    case .onlyInStore: "only in the store"
                    case .onlyInModel: "only in the model version"
                    case .hashDiffers: "hash differs"
                    }
                print("  \(difference.entity.padding(toLength: width, withPad: " ", startingAt: 0))  \(what)")
            }
        }
    }
}
