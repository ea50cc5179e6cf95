import Foundation
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
    private let batch = BatchCache()

    enum Storage {
        /// Rows of the fetched entity's table by key, in the fetch's order.
        case keys(PrimaryKeys, BatchRead)
        /// Results already in memory (unsaved changes were merged in).
        case objects([ManagedObject])
    }

    /// How a batch is read: the fetched entity, its number (for a row deleted since) and the batch size.
    struct BatchRead {
        let entity: String
        let entityNumber: Int
        let size: Int
    }

    /// The objects of the batch read last, by their index in the results.
    final class BatchCache {
        var first = -1
        var objects: [ManagedObject] = []
    }

    init(context: ManagedObjectContext, storage: Storage) {
        self.context = context
        self.storage = storage
    }

    /// The first position: 0.
    public var startIndex: Int { 0 }

    /// One past the last position: the number of results.
    public var endIndex: Int {
        switch storage {
        case .keys(let keys, _): keys.count
        case .objects(let objects): objects.count
        }
    }

    /// The object at `position`, reading its batch when it is not the current one.
    public subscript(position: Int) -> Element {
        if context.violatesQueue("BatchFaultingArray.subscript") { return context.onQueue { self[position] } }
        switch storage {
        case .objects(let objects):
            return Self.element(objects[position])
        case .keys(let keys, let read):
            let first = position - position % read.size
            if batch.first != first { load(from: first, keys, read) }
            return Self.element(batch.objects[position - first])
        }
    }

    private static func element(_ object: ManagedObject) -> Element {
        guard let element = object as? Element else { preconditionFailure("a \(type(of: object)) is not a \(Element.self)") }
        return element
    }

    /// Reads the rows of the batch starting at `first` and keeps its objects in results order,
    /// the previous batch let go first; a row deleted since the keys were read leaves a fault of
    /// the fetched entity, as Core Data's does.
    private func load(from first: Int, _ keys: PrimaryKeys, _ read: BatchRead) {
        batch.objects = []
        batch.first = first
        let wanted = (first..<Swift.min(first + read.size, keys.count)).map { keys[$0] }
        let stored = wanted.first.flatMap { key in
            try? context.reading(ObjectKey(number: read.entityNumber, key: key)) { try $0.objects(keys: wanted, inTableOf: read.entity) }
        } ?? []
        var byKey = [Int64: ManagedObject]()
        for row in stored {
            if let object = try? context.materialize(row) { byKey[row.key] = object }
        }
        batch.objects = wanted.compactMap { byKey[$0] ?? context.registeredOrFault(ObjectKey(number: read.entityNumber, key: $0)) }
    }
}
