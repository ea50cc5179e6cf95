import ArgumentParser
import Foundation
import GRDB
import ModelObjects
import ModelSchema
import ModelStore

/// `modelc fetch`: a store's objects, read-only, with Core Data's predicate language.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Print the objects of an entity in a store, filtered and sorted, without changing the store.",
        discussion: """
            The store is opened read-only with the version of --model whose entity hashes match it \
            (any version of the bundle, so an old store is read without migrating), or, without \
            --model, with the model the store carries in Z_MODELCACHE (stores written by SwiftData \
            or by an app whose model is not at hand). NAME's objects and its subentities' are \
            fetched, filtered by --predicate (Core Data's format strings), in primary-key order \
            unless --sort says otherwise.

            JSON form: {"entity", "count", "objects": [{"id": "x-coredata://<NSStoreUUID>/<Entity>/p<Z_PK>", \
            "entity": the object's own entity, "attributes": {...}, "relationships": {"toOne": id or null, \
            "toMany": [ids]}}]}; with --count only {"entity", "count"}. Values, exact so that 'modelc \
            import' reads back the same bits: strings; numbers for integers, doubles and floats \
            (shortest round-trip text; "NaN", "Infinity", "-Infinity" for non-finite ones); decimals \
            as strings ("NaN" for a NaN decimal, written back as that text); booleans; dates as RFC 3339 UTC with as many fractional digits as they need; \
            binary and transformable data as base64 of the stored bytes; UUIDs and URIs as strings; \
            null. To-many IDs are in the relationship's order where it is \
            ordered, else by primary key.
            """
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The model whose matching version reads the store (default: the store's own model cache).", completion: .file())
    var model: String?

    @Option(help: "The entity whose objects are printed (with its subentities').")
    var entity: String

    @Option(help: "A predicate in Core Data's format-string language, e.g. 'title BEGINSWITH[c] \"a\"'.")
    var predicate: String?

    @Option(help: "A key path to sort by (an attribute, through to-ones), KEY or KEY:desc; repeat for more keys.")
    var sort: [String] = []

    @Option(help: "Print at most this many objects.")
    var limit: Int?

    @Option(help: "Skip this many objects first.")
    var offset: Int?

    @Flag(help: "Print only how many objects match.")
    var count = false

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if let offset, offset < 0 { throw ValidationError("--offset must not be negative") }
    }

    func run() throws {
        try CommandFailure.reporting(json: json, path: store) {
            let report = try fetch()
            if json { try JSONOutput.print(report) } else { report.printText() }
        }
    }

    private func fetch() throws -> FetchReport {
        try StoreReading.withCoordinator(store: store, model: model, options: modelValidation.validation) { coordinator in
            guard coordinator.managedObjectModel.entitiesByName[entity] != nil else {
                throw CommandFailure(
                    errorClass: "usage", code: "X020", message: "the model version '\(coordinator.managedObjectModel.version.name)' has no entity '\(entity)'", path: store,
                    exitCode: ExitCode.validationFailure.rawValue)
            }
            let request = FetchRequest<ManagedObject>(entityName: entity)
            request.fetchLimit = limit ?? 0
            request.fetchOffset = offset ?? 0
            request.sortDescriptors = sort.map { key in
                key.hasSuffix(":desc") ? FetchSortDescriptor(key: String(key.dropLast(5)), ascending: false)
                    : FetchSortDescriptor(key: key.hasSuffix(":asc") ? String(key.dropLast(4)) : key)
            }
            if let predicate {
                do {
                    request.predicate = try FetchPredicate(format: predicate).checked()
                } catch {
                    throw CommandFailure(
                        errorClass: "usage", code: "S127", message: "the predicate does not parse: \(error)", path: store,
                        exitCode: ExitCode.validationFailure.rawValue)
                }
            }
            let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return try context.performAndWait {
                do {
                    if count { return FetchReport(entity: entity, count: try context.count(for: request), objects: nil) }
                    let objects = try context.fetch(request)
                    return FetchReport(entity: entity, count: objects.count, objects: objects.map(FetchReport.Object.init))
                } catch let error as NSError where error.domain == NSCocoaErrorDomain {
                    // SQLite's failure to read the store (locked, damaged, unreadable) keeps the class
                    // and advice of a store error; SQLITE_ERROR is the fetch's own (a MATCHES the
                    // regular-expression engine gave up on), reported with the context's code.
                    if let sqlite = error.userInfo[NSSQLiteErrorDomain] as? Int, ResultCode(rawValue: Int32(truncatingIfNeeded: sqlite)).primaryResultCode != .SQLITE_ERROR {
                        let reason = error.userInfo[NSLocalizedFailureReasonErrorKey] as? String
                        throw CommandFailure(StoreError(sqlite: DatabaseError(resultCode: ResultCode(rawValue: Int32(truncatingIfNeeded: sqlite)), message: reason), path: store))
                    }
                    throw CommandFailure(errorClass: "fetchFailed", code: String(error.code), message: error.localizedDescription, path: store)
                }
            }
        }
    }
}
