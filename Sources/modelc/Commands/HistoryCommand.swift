import ArgumentParser
import Foundation
import ModelObjects

/// `modelc history`: a store's persistent history as Core Data recorded it, read-only.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print a store's persistent history: which process and context changed which objects, and when.",
        discussion: """
            For support and forensic work: the transactions Core Data (or SwiftData, which tracks \
            history by default) recorded in the store's ATRANSACTION, ACHANGE and \
            ATRANSACTIONSTRING tables, oldest first, each with its changes in the order they were \
            recorded. The store is opened read-only, as for fetch: with the version of --model \
            whose entity hashes match it, or, without --model, with the model the store carries \
            in Z_MODELCACHE. The model names each change's entity, an update's changed \
            properties (the ZCOLUMNS bitmap) and a delete's preserved values (ZTOMBSTONEn).

            JSON form: {"transactions": [{"number", "timestamp": ISO 8601 UTC, "author", \
            "contextName", "bundleID", "processID" (null when not recorded), "changes": \
            [{"type": "insert"|"update"|"delete", "object": "x-coredata://<NSStoreUUID>/<Entity>/p<Z_PK>", \
            "updatedProperties": [names] (updates only), "tombstone": {name: value} (deletes only)}]}]}. \
            Tombstone values are written as fetch writes attribute values.

            ERRORS
              134091  the store does not track persistent history (it was never opened with \
                      NSPersistentHistoryTrackingKey, and SwiftData did not write it)
              134301  --after names a transaction older than the history still kept
            """
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The model whose matching version reads the store (default: the store's own model cache).", completion: .file())
    var model: String?

    @Option(help: "Print only the transactions numbered above N.")
    var after: Int64?

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    func validate() throws {
        if let after, after < 0 { throw ValidationError("--after must not be negative") }
    }

    func run() throws {
        try CommandFailure.reporting(json: json, path: store) {
            let report = try history()
            if json { try JSONOutput.print(report) } else { report.printText() }
        }
    }

    private func history() throws -> HistoryReport {
        try StoreReading.withCoordinator(store: store, model: model, options: modelValidation.validation) { coordinator in
            let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return try context.performAndWait {
                do {
                    let token = after.map { HistoryToken(storeIdentifier: "", transactionNumber: $0) }
                    let transactions = try context.execute(HistoryChangeRequest.fetchHistory(after: token)).transactions
                    return HistoryReport(transactions, model: coordinator.managedObjectModel)
                } catch let error as NSError where error.domain == NSCocoaErrorDomain {
                    throw CommandFailure(
                        errorClass: error.code == 134091 ? "noHistory" : "historyFailed", code: String(error.code), message: error.localizedDescription,
                        path: store)
                }
            }
        }
    }
}
