import Foundation
import ModelObjects

/// `history` output: transactions and their changes, JSON or a table.
struct HistoryReport: Encodable {
    var transactions: [Transaction]

    /// One transaction, its strings null where Core Data recorded none.
    struct Transaction: Encodable {
        var number: Int64
        var timestamp: String
        var author: String?
        var contextName: String?
        var bundleID: String?
        var processID: String?
        var changes: [Change]

        /// Encodes the strings as null rather than leaving them out, so every transaction has every key.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(author, forKey: .author)
            try container.encode(contextName, forKey: .contextName)
            try container.encode(bundleID, forKey: .bundleID)
            try container.encode(processID, forKey: .processID)
            try container.encode(changes, forKey: .changes)
        }

        private enum CodingKeys: String, CodingKey {
            case number, timestamp, author, contextName, bundleID, processID, changes
        }
    }

    /// One change: its type, the object's URI, and an update's properties or a delete's tombstone.
    struct Change: Encodable {
        var type: String
        var object: String
        var updatedProperties: [String]?
        var tombstone: [String: FetchReport.Value]?
    }

    init(_ transactions: [HistoryTransaction], model: ManagedObjectModel) {
        self.transactions = transactions.map { transaction in
            Transaction(
                number: transaction.transactionNumber, timestamp: FetchReport.Value.dateFormatter.string(from: transaction.timestamp),
                author: transaction.author, contextName: transaction.contextName, bundleID: transaction.bundleID, processID: transaction.processID,
                changes: transaction.changes.map { change in
                    let attributes = model.entitiesByName[change.changedObjectID.entityName]?.attributesByName ?? [:]
                    return Change(
                        type: change.changeType.description, object: change.changedObjectID.uriRepresentation().absoluteString,
                        updatedProperties: change.updatedProperties,
                        tombstone: change.tombstone.map { values in
                            values.reduce(into: [:]) { result, entry in
                                if let type = attributes[entry.key]?.type { result[entry.key] = FetchReport.Value(entry.value, type) }
                            }
                        })
                })
        }
    }

    /// A table per transaction: its number, time and strings, then one line per change.
    func printText() {
        for transaction in transactions {
            let strings = [("author", transaction.author), ("context", transaction.contextName), ("bundle", transaction.bundleID), ("process", transaction.processID)]
                .compactMap { name, value in value.map { "\(name) \($0)" } }
            print((["transaction \(transaction.number)", transaction.timestamp] + strings).joined(separator: "  "))
            for change in transaction.changes {
                var detail = ""
                if let properties = change.updatedProperties { detail = properties.joined(separator: ", ") }
                if let tombstone = change.tombstone {
                    detail = tombstone.keys.sorted().map { "\($0)=\(tombstone[$0]?.text ?? "nil")" }.joined(separator: ", ")
                }
                print("  " + [change.type.padding(toLength: 6, withPad: " ", startingAt: 0), change.object, detail].filter { !$0.isEmpty }.joined(separator: "  "))
            }
        }
        let changes = transactions.reduce(0) { $0 + $1.changes.count }
        print("\(transactions.count) transaction\(transactions.count == 1 ? "" : "s"), \(changes) change\(changes == 1 ? "" : "s")")
    }
}
