import Foundation
import GRDB

/// Write transactions held open in several stores at once, so that a save or a batch request
/// spanning them changes all of them or none: every store's transaction begins first, the work
/// runs in each, and they commit in turn only once all of it succeeded; any failure before the
/// commits rolls every store back. Only a commit failing after an earlier store's succeeded leaves
/// a partial change (``IncompleteCommit``). SQLite's errors come out as the context's
/// (``ContextError/store(_:)``), never raw.
enum StoreTransactions {
    /// The commit of one store failed after the first `committed` stores had committed theirs;
    /// that store and the ones after it were rolled back.
    struct IncompleteCommit: Error {
        let committed: Int
        /// Core Data's 134040 (`NSPersistentStoreIncompleteSaveError`): the stores that did not
        /// commit in `NSAffectedStoresErrorKey`, the failure in `NSUnderlyingErrorKey`.
        let error: NSError
    }

    /// Runs `body` with a write transaction open in each of `stores` (given their databases in
    /// that order) and commits them in that order; returns what `body` returns.
    static func write<T>(_ stores: [PersistentStoreCoordinator.OpenedStore], _ body: ([Database]) throws -> T) throws -> T {
        // Writers and locks are taken in the order of the stores' UUIDs, the same in every
        // coordinator and process whatever order they added the stores in, so that two saves over
        // the same stores never wait on each other crosswise.
        let order = stores.indices.sorted { stores[$0].identifier < stores[$1].identifier }
        do {
            return try open(order[...], [:], stores, order, body)
        } catch let error as DatabaseError {
            throw ContextError.store(error)
        }
    }

    /// Takes the writer of each store of `rest` in turn, then runs `body` holding them all.
    private static func open<T>(
        _ rest: ArraySlice<Int>, _ taken: [Int: Database], _ stores: [PersistentStoreCoordinator.OpenedStore], _ order: [Int],
        _ body: ([Database]) throws -> T
    ) throws -> T {
        guard let index = rest.first else { return try run(stores, stores.indices.compactMap { taken[$0] }, order, body) }
        return try stores[index].database.writeWithoutTransaction { db in
            var taken = taken
            taken[index] = db
            return try open(rest.dropFirst(), taken, stores, order, body)
        }
    }

    /// Begins a transaction in each database (in `order`), runs `body` and commits them in turn.
    private static func run<T>(
        _ stores: [PersistentStoreCoordinator.OpenedStore], _ databases: [Database], _ order: [Int], _ body: ([Database]) throws -> T
    ) throws -> T {
        let result: T
        // A store whose connection is inside a transaction its caller holds open (an import's,
        // which saves in batches) joins it with a savepoint, committed or undone with it.
        let joined = databases.map(\.isInsideTransaction)
        do {
            for index in order where index < databases.count {
                if joined[index] { try databases[index].execute(sql: "SAVEPOINT \(savepoint)") } else { try databases[index].beginTransaction() }
            }
            result = try body(databases)
        } catch {
            rollBack(databases.indices, databases, joined)
            throw error
        }
        for (index, db) in databases.enumerated() {
            do {
                if joined[index] { try db.execute(sql: "RELEASE SAVEPOINT \(savepoint)") } else { try db.commit() }
            } catch {
                rollBack(index..<databases.count, databases, joined)
                guard index > 0 else { throw error }
                let reported = (error as? DatabaseError).map { ContextError.store($0) } ?? error as NSError
                let failed = stores[index...].map(\.persistentStore)
                throw IncompleteCommit(
                    committed: index,
                    error: ContextError.make(
                        134040,
                        "\(stores[index].identifier) failed to commit after \(stores[..<index].map(\.identifier).joined(separator: ", ")) committed; "
                            + "\(failed.map(\.identifier).joined(separator: ", ")) kept nothing: \(reported.localizedDescription)",
                        [NSAffectedStoresErrorKey: failed, NSUnderlyingErrorKey: reported]))
            }
        }
        return result
    }

    /// The savepoint of a store whose transaction the caller holds.
    private static let savepoint = "modelcStoreTransactions"

    /// Ends the open transactions (or joined savepoints) of `databases` at `indices` without their changes.
    private static func rollBack(_ indices: Range<Int>, _ databases: [Database], _ joined: [Bool]) {
        for index in indices {
            if joined[index] {
                try? databases[index].execute(sql: "ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)")
            } else {
                try? databases[index].rollback()
            }
        }
    }
}
