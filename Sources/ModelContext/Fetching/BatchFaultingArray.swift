import Foundation
import GRDB
import ModelStore

/// The results of a fetch with a batch size, as Core Data's proxy array holds them: the matching
/// rows' keys, read at once, and their objects read `fetchBatchSize` rows at a time as they are
/// reached, with only the current batch kept by the array. Memory follows the batch size and what
/// the app keeps, not the number of results. (On Apple platforms the Swift array Core Data returns
/// wraps that proxy; Swift's arrays on Linux are eager, so the proxy has a type of its own.)
/// Use it on its context's queue, as the objects it hands out.
public struct BatchFaultingArray<Element>: RandomAccessCollection {
    private let context: ManagedObjectContext
    private let storage: Storage
    private let batch: BatchCache

    enum Storage {
        /// Rows of one table by key, in the fetch's order; keys that fit stored in 32 bits.
        case narrowKeys([UInt32], table: TableRead)
        case wideKeys([Int64], table: TableRead)
        /// Results already in memory (unsaved changes were merged in).
        case objects([ManagedObject])
    }

    /// How a batch of rows is read: the select list and table of the fetched entity.
    struct TableRead {
        let select: String
        let table: String
        let entityNumber: Int
        let batchSize: Int
    }

    /// The objects of the batch read last, by their index in the results.
    final class BatchCache {
        var first = -1
        var objects: [ManagedObject] = []
    }

    init(context: ManagedObjectContext, storage: Storage) {
        self.context = context
        self.storage = storage
        batch = BatchCache()
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .narrowKeys(let keys, _): keys.count
        case .wideKeys(let keys, _): keys.count
        case .objects(let objects): objects.count
        }
    }

    /// The object at `position`, reading its batch when it is not the current one.
    public subscript(position: Int) -> Element {
        switch storage {
        case .objects(let objects):
            return Self.element(objects[position])
        case .narrowKeys(_, let table), .wideKeys(_, let table):
            let first = position - position % table.batchSize
            if batch.first != first { load(from: first, table) }
            return Self.element(batch.objects[position - first])
        }
    }

    private static func element(_ object: ManagedObject) -> Element {
        guard let element = object as? Element else { preconditionFailure("a \(type(of: object)) is not a \(Element.self)") }
        return element
    }

    private func key(at index: Int) -> Int64 {
        switch storage {
        case .narrowKeys(let keys, _): Int64(keys[index])
        case .wideKeys(let keys, _): keys[index]
        case .objects: 0
        }
    }

    /// Reads the rows of the batch starting at `first` and keeps its objects in results order;
    /// a row deleted since the keys were read leaves a fault of the fetched entity, as Core Data's does.
    private func load(from first: Int, _ table: TableRead) {
        let keys = (first..<Swift.min(first + table.batchSize, endIndex)).map(key(at:))
        let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        let statement = StoreStatement(sql: "SELECT \(table.select) FROM \(table.table) t0 WHERE t0.Z_PK IN (\(marks))", arguments: StatementArguments(keys))
        let stored = (try? context.read { try ObjectRowReader(db: $0, rows: context.rows()).objects(statement) }) ?? []
        var byKey = [Int64: ManagedObject]()
        for row in stored {
            if let object = try? context.materialize(row) { byKey[row.key] = object }
        }
        batch.objects = []
        batch.first = first
        batch.objects = keys.compactMap { byKey[$0] ?? context.registeredOrFault(ObjectKey(number: table.entityNumber, key: $0)) }
    }
}
