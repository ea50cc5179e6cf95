import ModelStore

/// The key spaces a coordinator gives the stores that IDs name but it lacks (an ID another
/// coordinator made), one per store, numbered as they are first met: two such IDs with the same
/// entity and primary key then never share a key in a context's tables. Shared by every copy of
/// the coordinator's opened stores, under a lock.
final class ForeignKeySpaces: Sendable {
    private let numbers = Mutex<[String: Int]>([:])

    /// The key space of the store `id` names.
    func keys(of id: ManagedObjectID) -> KeySpace {
        let number = numbers.withLock { numbers in
            if let known = numbers[id.storeIdentifier] { return known }
            let next = numbers.count
            numbers[id.storeIdentifier] = next
            return next
        }
        return KeySpace(foreignStore: number)
    }
}
