import ModelStore

/// Prefetching (`relationshipKeyPathsForPrefetching`): the relationships a fetch names are read
/// for all its objects at once, a statement per relationship and per 500 objects rather than one
/// per object when each is first used, and the objects they lead to are read with them, so that
/// walking them touches the store no more. Key paths go through several relationships
/// (`"author.publications"`), each step prefetched for the objects of the one before. A child
/// context does not prefetch: its objects' values come from its parent, not the store.
extension ManagedObjectContext {
    func prefetch(_ keyPaths: [String], of objects: [ManagedObject]) throws {
        guard parent == nil else { return }
        for path in keyPaths {
            var level = objects
            for name in path.split(separator: ".").map(String.init) where !level.isEmpty {
                level = try prefetch(name, of: level)
            }
        }
    }

    /// Reads relationship `name` of `objects` (and the rows of the objects it leads to); returns those objects.
    private func prefetch(_ name: String, of objects: [ManagedObject]) throws -> [ManagedObject] {
        var destinations = [ManagedObject]()
        var seen = Set<ObjectIdentifier>()
        func reached(_ object: ManagedObject) {
            if seen.insert(ObjectIdentifier(object)).inserted { destinations.append(object) }
        }
        var byEntity = [ObjectIdentifier: [ManagedObject]]()
        for object in objects { byEntity[ObjectIdentifier(object.entity), default: []].append(object) }
        for owners in byEntity.values {
            switch owners[0].entity.properties[name] {
            case .toOne(let relationship, _)?:
                for owner in owners { target(of: relationship, in: owner).map(reached) }
            case .toMany(let relationship)?:
                let unread = owners.filter { !$0.inserted && $0.toManys[name] == nil }
                let keys = try unread.compactMap { try objectKey(of: $0.objectID) }
                // Each store's owners are read from their store (several stores may hold the entity).
                var related = [Int64: [ObjectKey]]()
                for (_, part) in Dictionary(grouping: keys, by: { KeySpace.store(of: $0.key) }) {
                    related.merge(try reading(part[0]) { try $0.related(relationship, ofAll: part) }) { first, _ in first }
                }
                for (owner, key) in zip(unread, keys) {
                    let members = (related[key.key] ?? []).compactMap(registeredOrFault)
                    owner.committedToManys[name] = members
                    owner.toManys[name] = RelatedObjects(members)
                }
                for owner in owners { contents(of: relationship, in: owner).objects.forEach(reached) }
            default:
                continue
            }
        }
        try fulfill(destinations)
        return destinations
    }

    /// Reads the rows of the faults among `objects`, a statement per table and per 500 of them.
    func fulfill(_ objects: [ManagedObject]) throws {
        var byTable = [TableOfStore: (entity: String, number: Int, keys: [Int64])]()
        for object in objects where object.isFault && !object.objectID.isTemporaryID {
            let key = object.objectID.rowKey
            byTable[TableOfStore(table: object.entity.shape.table, store: KeySpace.store(of: key)), default: (object.entity.name, object.entity.shape.number, [])]
                .keys.append(key)
        }
        for (entity, number, keys) in byTable.values {
            for start in stride(from: 0, to: keys.count, by: 500) {
                let batch = Array(keys[start..<min(start + 500, keys.count)])
                let stored = try reading(ObjectKey(number: number, key: batch[0])) { try $0.objects(keys: batch, inTableOf: entity) }
                _ = try materialize(stored)
            }
        }
    }
}

/// A table in one store: faults are read a table and a store at a time.
private struct TableOfStore: Hashable {
    let table: String
    let store: Int
}
