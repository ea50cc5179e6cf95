import Foundation
import ModelStore

/// Fetching in batches: the keys of the matching rows are read at once, the rows themselves a
/// batch at a time as the results are reached (`fetchBatchSize`), as Core Data's SQL shows it:
/// `SELECT t0.Z_PK … ORDER BY …`, then `… WHERE t0.Z_PK IN (?, …)` per batch.
extension ManagedObjectContext {
    /// The objects `request` matches as a ``BatchFaultingArray``, whose memory follows the batch
    /// size (all rows in one batch when it is 0); with unsaved changes to merge, or rows in
    /// several stores to sort together, they are read at once.
    public func batchFaultingFetch<T>(_ request: FetchRequest<T>) throws -> BatchFaultingArray<T> {
        try checkQueue()
        guard request.resultType == .managedObjectResultType else {
            throw ContextError.make(134060, "only a fetch of objects can be read in batches; this one returns \(request.resultType)")
        }
        let stores = try stores(holding: request.entityName, subentities: request.includesSubentities, affected: request.affectedStores)
        if request.includesPendingChanges && hasPendingChanges(for: request.entityName) || stores.count != 1 {
            return BatchFaultingArray(context: self, storage: .objects(try objects(request)))
        }
        let rows = try self.rows()
        guard let shape = rows.shape(named: request.entityName) else {
            throw ContextError.make(134060, "the model has no entity named '\(request.entityName)'")
        }
        var fetch = try storeFetch(request)
        fetch.limit = request.fetchLimit > 0 ? request.fetchLimit : nil
        fetch.offset = request.fetchOffset > 0 ? request.fetchOffset : nil
        fetch.keys = stores[0].keys
        let statement = try Self.translating { try fetch.select(["t0.Z_PK"], layout: rows.layout, entities: rows.entities) }
        let keys = try reading(stores[0]) { try $0.primaryKeys(statement) }
        let batch = BatchFaultingArray<T>.BatchRead(
            entity: request.entityName, entityNumber: shape.number, size: request.fetchBatchSize > 0 ? request.fetchBatchSize : max(keys.count, 1))
        return BatchFaultingArray(context: self, storage: .keys(keys, batch))
    }
}
