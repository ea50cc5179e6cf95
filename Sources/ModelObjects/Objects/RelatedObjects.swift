/// The objects of a to-many relationship in memory: in order, each once.
struct RelatedObjects {
    private(set) var objects: [ManagedObject] = []
    private var members: Set<ObjectIdentifier> = []

    init(_ objects: [ManagedObject] = []) {
        for object in objects { append(object) }
    }

    func contains(_ object: ManagedObject) -> Bool { members.contains(ObjectIdentifier(object)) }

    var count: Int { objects.count }

    /// Adds `object` at the end (or at `index`); false when it was there already.
    @discardableResult
    mutating func append(_ object: ManagedObject, at index: Int? = nil) -> Bool {
        guard members.insert(ObjectIdentifier(object)).inserted else { return false }
        if let index, index >= 0, index < objects.count {
            objects.insert(object, at: index)
        } else {
            objects.append(object)
        }
        return true
    }

    /// Puts `new` in the place of `old`, if `old` is there (only dropping `old` when `new` is too).
    mutating func replace(_ old: ManagedObject, with new: ManagedObject) {
        guard let index = objects.firstIndex(where: { $0 === old }) else { return }
        remove(old)
        append(new, at: index)
    }

    /// Removes `object`; false when it was not there.
    @discardableResult
    mutating func remove(_ object: ManagedObject) -> Bool {
        guard members.remove(ObjectIdentifier(object)) != nil else { return false }
        objects.removeAll { $0 === object }
        return true
    }
}
