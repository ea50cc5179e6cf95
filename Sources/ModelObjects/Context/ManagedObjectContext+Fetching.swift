import Foundation
import ModelExpression
import ModelStore

/// Fetching: the store answers in SQL, then the context's unsaved changes are merged in with the
/// evaluator (new and changed objects that match, minus deleted ones and changed ones that no
/// longer do), as Core Data's `executeFetchRequest:` does.
extension ManagedObjectContext {
    /// The request's results: objects, object IDs, dictionaries or a count, as its result type says.
    public func fetch<T>(_ request: FetchRequest<T>) throws -> [T] {
        try checkQueue()
        switch request.resultType {
        case .countResultType:
            return [NSNumber(value: try count(for: request))].compactMap { $0 as? T }
        case .managedObjectIDResultType:
            return try objects(request).map(\.objectID).compactMap { $0 as? T }
        case .dictionaryResultType:
            return try dictionaries(request).compactMap { ($0 as Any) as? T ?? NSDictionary(dictionary: $0) as? T }
        case .managedObjectResultType:
            if let type = T.self as? ManagedObject.Type { learnClass(type) }
            let objects = try objects(request)
            if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty { try prefetch(keyPaths, of: objects) }
            return Self.results(objects, as: T.self)
        }
    }

    /// `objects` as a fetch's results of type `T`. For a managed object class, which is what a
    /// fetch of objects is nearly always typed as, the array itself, once each object is found to
    /// be a `T` (one check per class met, where a cast per object was a twentieth of a fetch);
    /// for any other type, each object cast.
    static func results<T>(_ objects: [ManagedObject], as type: T.Type) -> [T] {
        guard T.self is ManagedObject.Type else { return objects.compactMap { $0 as? T } }
        var checked: ObjectIdentifier?
        for object in objects where ObjectIdentifier(Swift.type(of: object)) != checked {
            guard object is T else { return objects.compactMap { $0 as? T } }
            checked = ObjectIdentifier(Swift.type(of: object))
        }
        // Every element is a `T`, a class: the same references, laid out as `[ManagedObject]` is.
        return unsafeBitCast(objects, to: [T].self)
    }

    /// How many objects the request matches (pending changes included when it says so).
    public func count<T>(for request: FetchRequest<T>) throws -> Int {
        try checkQueue()
        let model = try coordinator().managedObjectModel
        let ancestors = ancestorsRows(request)
        if request.includesPendingChanges && hasPendingChanges(for: request.entityName) || !ancestors.isEmpty {
            return try objects(request, ancestors: ancestors).count
        }
        var fetch = try storeFetch(request)
        fetch.sortKeys = []
        let stores = try stores(holding: request.entityName, subentities: request.includesSubentities, affected: request.affectedStores)
        var total = try readEach(stores) { reader in
            fetch.keys = reader.keys
            let statement = try Self.translating { try fetch.count(layout: model.rows.layout, entities: model.rows.entities) }
            return [try reader.integer(statement)]
        }.reduce(0, +)
        total = max(0, total - request.fetchOffset)
        return request.fetchLimit > 0 ? min(total, request.fetchLimit) : total
    }

    // MARK: - Objects

    /// The request's objects; a child's fetch sees its ancestors' unsaved changes (`ancestors`,
    /// asked of the parent when not given) as the store's rows.
    func objects<T>(_ request: FetchRequest<T>, ancestors given: [ObjectKey: StoredObject?]? = nil) throws -> [ManagedObject] {
        let ancestors = given ?? ancestorsRows(request)
        // Results from several stores are sorted and windowed together, as pending changes are.
        let stores = try stores(holding: request.entityName, subentities: request.includesSubentities, affected: request.affectedStores)
        let merging = request.includesPendingChanges && hasPendingChanges(for: request.entityName) || !ancestors.isEmpty || stores.count > 1
        var fetch = try storeFetch(request)
        if !merging {
            fetch.limit = request.fetchLimit > 0 ? request.fetchLimit : nil
            fetch.offset = request.fetchOffset > 0 ? request.fetchOffset : nil
        }
        var stored = try rows(of: fetch, in: stores)
        if !ancestors.isEmpty {
            stored = stored.compactMap { row in ancestors[ObjectKey(number: row.number, key: row.key)] ?? row }
        }
        var result = try materialize(consume stored)
        guard merging else { return result }
        let evaluation = ObjectEvaluation(self)
        let predicate = try request.predicate?.checkedNode()
        var seen = Set(result.map(ObjectIdentifier.init))
        result = try result.filter { object in
            if object.deleted { return false }
            let changed = object.isUpdated || !ancestors.isEmpty && ancestors[object.rowKey] != nil
            return try !changed || evaluation.matches(object, predicate)
        }
        // The ancestors' new and changed objects the store's rows did not give, in key order.
        let others = try materialize(ancestors.values.compactMap { $0 }.sorted { ($0.number, $0.key) < ($1.number, $1.key) })
        let pending = request.includesPendingChanges ? insertedList.objects + updatedList.objects : []
        // With affectedStores, an object counts only in the store it is (or will be saved) in.
        let restricting = try request.affectedStores.map { _ in try coordinator().stores() }
        for object in others + pending where !seen.contains(ObjectIdentifier(object)) && !object.deleted {
            guard isKind(object, of: request), restricting.map({ isStored(object, in: stores, of: $0) }) ?? true else { continue }
            guard try evaluation.matches(object, predicate) else { continue }
            seen.insert(ObjectIdentifier(object))
            result.append(object)
        }
        if !request.sortDescriptors.isEmpty {
            let keys = request.sortDescriptors.map(Self.sortKey)
            let values = try result.map { object in try keys.map { try evaluation.value(atPath: $0.keyPath, of: object) } }
            let order = result.indices.sorted { a, b in
                for (index, key) in keys.enumerated() {
                    let comparison = SortKey.compare(values[a][index], values[b][index], by: key)
                    if comparison != .orderedSame { return comparison == .orderedAscending }
                }
                return a < b
            }
            result = order.map { result[$0] }
        }
        let start = min(request.fetchOffset, result.count)
        let end = request.fetchLimit > 0 ? min(result.count, start + request.fetchLimit) : result.count
        return Array(result[start..<end])
    }

    /// Dictionaries of the matching rows' attributes (those of `propertiesToFetch`, or all), as
    /// the store holds them, with the expressions it names: unsaved changes are not included, as
    /// in Core Data.
    private func dictionaries<T>(_ request: FetchRequest<T>) throws -> [[String: Any]] {
        let model = try coordinator().managedObjectModel
        let properties = try request.propertiesToFetch.map(FetchedProperty.parse)
        let aggregates = properties?.contains(where: \.isAggregate) ?? false
        let grouping = request.propertiesToGroupBy ?? (aggregates ? [] : nil)
        if let grouping {
            // Core Data's rule: every property fetched with a GROUP BY (or beside an aggregate) is one of its properties.
            let names = properties?.compactMap(\.attributeName) ?? grouping
            if let stray = names.first(where: { !grouping.contains($0) }) {
                throw ContextError.make(134060, "'\(stray)' is fetched but is not in propertiesToGroupBy; a grouped fetch returns only the properties it groups by, and aggregates")
            }
        }
        let collapses = grouping != nil || request.returnsDistinctResults
        var fetch = try storeFetch(request)
        if !collapses {
            fetch.limit = request.fetchLimit > 0 ? request.fetchLimit : nil
            fetch.offset = request.fetchOffset > 0 ? request.fetchOffset : nil
        }
        let stored = try rows(of: fetch, in: stores(holding: request.entityName, subentities: request.includesSubentities, affected: request.affectedStores))
        let rows = stored.compactMap { row -> [String: Any]? in
            guard let shape = model.rows.shape(number: row.number) else { return nil }
            var dictionary = [String: Any]()
            for (slot, value) in zip(shape.attributes, row.attributes) {
                if let value { dictionary[slot.name] = value }
            }
            return dictionary
        }
        let fetched = properties ?? grouping.map { $0.map(FetchedProperty.attribute) }
        // A group's rows: each row alone, or every row with the grouped attributes' values.
        var groups = [[[String: Any]]]()
        if let grouping {
            var index = [NSDictionary: Int]()
            for row in rows {
                let key = NSDictionary(dictionary: row.filter { grouping.contains($0.key) })
                if let known = index[key] {
                    groups[known].append(row)
                } else {
                    index[key] = groups.count
                    groups.append([row])
                }
            }
            if groups.isEmpty, aggregates, request.propertiesToGroupBy == nil { groups = [[]] }
        } else {
            groups = rows.map { [$0] }
        }
        var result = groups.map { group -> [String: Any] in
            guard let fetched else { return group.first ?? [:] }
            var dictionary = [String: Any]()
            for property in fetched {
                let (key, value) = property.value(over: group)
                if let value { dictionary[key] = value }
            }
            return dictionary
        }
        guard collapses else { return result }
        // One dictionary per distinct combination, in the order the first of each was read.
        var seen = Set<NSDictionary>()
        result = result.filter { seen.insert(NSDictionary(dictionary: $0)).inserted }
        let start = min(request.fetchOffset, result.count)
        let end = request.fetchLimit > 0 ? min(result.count, start + request.fetchLimit) : result.count
        return Array(result[start..<end])
    }

    // MARK: - Requests

    func storeFetch<T>(_ request: FetchRequest<T>) throws -> StoreFetch {
        guard try coordinator().managedObjectModel.entitiesByName[request.entityName] != nil else {
            throw ContextError.make(134060, "the model has no entity named '\(request.entityName)'")
        }
        var fetch = StoreFetch(entity: request.entityName)
        fetch.includesSubentities = request.includesSubentities
        fetch.predicate = try request.predicate?.checkedNode()
        fetch.sortKeys = request.sortDescriptors.map(Self.sortKey)
        return fetch
    }

    /// A statement of the store, with a predicate SQL cannot answer reported as Core Data's
    /// generic error 134060 naming the part.
    static func translating(_ build: () throws -> StoreStatement) throws -> StoreStatement {
        do {
            return try build()
        } catch let error as PredicateTranslationError {
            throw ContextError.make(134060, "the store cannot answer this fetch: \(error.message)")
        }
    }

    static func sortKey(_ descriptor: FetchSortDescriptor) -> SortKey {
        let comparison: SortKey.Comparison = switch descriptor.comparison {
        case .default: .default
        case .caseInsensitive: .caseInsensitive
        case .localized: .localized
        case .localizedCaseInsensitive: .localizedCaseInsensitive
        case .localizedStandard: .localizedStandard
        }
        return SortKey(descriptor.key, ascending: descriptor.ascending, comparison: comparison)
    }

    /// For a child context, the rows its ancestors changed without saving that the request may
    /// return (nil for deleted ones); empty for a root context.
    func ancestorsRows<T>(_ request: FetchRequest<T>) -> [ObjectKey: StoredObject?] {
        guard let parent else { return [:] }
        return parent.onQueue { parent.pendingRows(kindOf: request.entityName) }
    }

    /// Whether unsaved changes touch objects a fetch of `entityName` may return.
    func hasPendingChanges(for entityName: String) -> Bool {
        guard let entities = try? rows().entities else { return hasChanges }
        return (insertedList.objects + updatedList.objects + deletedList.objects).contains { entities.isKind($0.entity.name, of: entityName) }
    }

    private func isKind<T>(_ object: ManagedObject, of request: FetchRequest<T>) -> Bool {
        if !request.includesSubentities { return object.entity.name == request.entityName }
        return (try? rows().entities.isKind(object.entity.name, of: request.entityName)) ?? false
    }
}
