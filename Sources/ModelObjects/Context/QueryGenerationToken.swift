import Foundation
import GRDB

/// A generation of the store's data (`NSQueryGenerationToken`): a context pinned to one reads the
/// store as it was when the generation began, whatever other contexts and processes save since,
/// until it moves to another. A generation is a read transaction SQLite keeps open on each of the
/// coordinator's stores, all in WAL mode (the snapshots of `DatabasePool.makeSnapshot()`, begun
/// together), shared by every context holding its token.
public struct QueryGenerationToken: Sendable, Hashable {
    /// Pins a context to the generation current at its next read.
    public static let current = QueryGenerationToken(generation: nil)

    let generation: Generation?

    /// Whether both tokens stand for the same generation.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.generation === rhs.generation }
    /// Hashes the generation's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(generation.map(ObjectIdentifier.init)) }
}

/// The snapshots of one generation, one per store.
final class Generation: Sendable {
    /// Each store's snapshot, by the store's place among the coordinator's stores.
    let snapshots: [DatabaseSnapshot]

    init(_ snapshots: [DatabaseSnapshot]) { self.snapshots = snapshots }
}

extension ManagedObjectContext {
    /// The generation the context is pinned to; nil when it reads the store as it is now.
    public var queryGenerationToken: QueryGenerationToken? {
        if violatesQueue() { return onQueue { self.queryGenerationToken } }
        return pinned.map { QueryGenerationToken(generation: $0.generation) }
    }

    /// Pins the context to the generation `token` names (`.current`: the one current at the next
    /// read; another context's token: that context's), or unpins it with nil. Query generations
    /// need stores in WAL mode, as Core Data's, and a root context; otherwise 134091 (unsupported request).
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        try checkQueue()
        guard let token else {
            pinned = nil
            return
        }
        // A child reads through its parent, which is where a generation is pinned.
        guard parent == nil else { throw ContextError.make(134091, "a child context cannot be pinned to a query generation; pin its root context") }
        guard try coordinator().stores().all.allSatisfy({ $0.database is DatabasePool }) else {
            throw ContextError.make(134091, "query generations need a store in WAL mode")
        }
        pinned = Pin(generation: token.generation)
        // The objects read so far belong to another generation: read them again when next used.
        refreshAll(usingCache: false)
    }

    /// Reads the store at place `index` through the pinned generation when there is one
    /// (starting it, in every store, at the first read after `.current`).
    func readPinned<T>(in index: Int, _ body: (Database) throws -> T) throws -> T? {
        guard var pin = pinned else { return nil }
        if pin.generation == nil {
            let pools = try coordinator().stores().all.compactMap { $0.database as? DatabasePool }
            pin.generation = Generation(try pools.map { try $0.makeSnapshot() })
            pinned = pin
        }
        guard let snapshots = pin.generation?.snapshots, index < snapshots.count else { return nil }
        return try snapshots[index].read(body)
    }

    /// What a pinned context is pinned to.
    struct Pin {
        var generation: Generation?
    }
}
