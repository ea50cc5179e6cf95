import ArgumentParser
import Foundation
import ModelStore

/// `modelc store check`: whether a store opens with the current model version, and if not, the
/// class of the failure, Core Data's code and what is safe to do.
struct StoreCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a store opens with the model's current version; classify the failure if not.",
        discussion: """
            Makes the checks Core Data makes when it loads a store, without changing the store: \
            the file exists and can be read, no other process holds a write lock (one is waited for up to 5 s), it is an \
            intact SQLite database (PRAGMA quick_check) with Core Data metadata, a version of \
            the model made it, that version is the current one, and the tables hold every \
            column the version needs (with --configuration, the hashes and tables of that \
            configuration's entities only, as for a store added for it). Rows whose entity number (Z_ENT) belongs to an entity \
            of another table are reported as a warning with their count, table and number \
            (Core Data writes none; a migration keeps them naming their entity).

            Classes and codes: notFound 260, permissionDenied 257, corrupt 259, \
            notACoreDataStore 134010, locked 134090, incompatibleVersionHash 134100 (an older \
            version made it: migrate), missingSourceModel 134130 (no version made it), \
            newerModel 134130 (a newer version made it), incompatibleSchema 134020.

            JSON form: {"class", "code", "advice", "message", "path", "currentVersion", \
            "matchedVersion", "sqliteCode", "warnings": [{"table", "entityNumber", "entity", \
            "count"}]}; class is "compatible" and code 0 when the store opens.

            EXIT STATUS
              0   the store opens with the current version
              2   it does not (any class above)
              1   the model could not be read or has errors
            """
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The model the app opens the store with.", completion: .file())
    var model: String

    @Option(help: "The configuration the store was added for (its entities' hashes and tables are checked); every entity when omitted.")
    var configuration: String?

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: model) {
            let bundle = try ModelLoading.read(model, options: modelValidation.validation)
            let check = StoreCheck.run(storeAt: store, bundle: bundle, findingForeignEntityRows: true, configuration: configuration)
            let report = StoreCheckReport(check)
            if !json {
                for rows in check.foreignEntityRows { FileHandle.standardError.write(Data("\(store): warning: \(rows.warning)\n".utf8)) }
            }
            if json {
                try JSONOutput.print(report)
            } else if let error = check.error {
                CommandFailure(error, exitCode: 2).print(json: false)
            } else {
                print("\(store): opens with the current version '\(check.currentVersion ?? "")'")
            }
            if check.error != nil { throw ExitCode(2) }
        }
    }
}

/// `store check --json` output; every key is written, `null` included.
struct StoreCheckReport: Encodable {
    var check: StoreCheck

    init(_ check: StoreCheck) {
        self.check = check
    }

    enum CodingKeys: String, CodingKey {
        case errorClass = "class", code, advice, message, path, currentVersion, matchedVersion, sqliteCode, warnings
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(check.error?.errorClass.rawValue ?? "compatible", forKey: .errorClass)
        try container.encode(check.error?.code ?? 0, forKey: .code)
        try container.encode(check.error?.advice ?? "The store opens with the current version; nothing to do.", forKey: .advice)
        try container.encode(check.error?.message ?? "opens with the current version", forKey: .message)
        try container.encode(check.path, forKey: .path)
        try container.encode(check.currentVersion, forKey: .currentVersion)
        try container.encode(check.match?.matched?.name, forKey: .matchedVersion)
        try container.encode(check.error?.sqliteCode, forKey: .sqliteCode)
        try container.encode(check.foreignEntityRows, forKey: .warnings)
    }
}
