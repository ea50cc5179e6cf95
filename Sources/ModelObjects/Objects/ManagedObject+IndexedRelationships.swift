import Foundation

/// The mutators of an ordered to-many at several indexes at once, which Xcode's generated
/// accessors (`insertIntoItems(_:at:)` with an `NSIndexSet`, …) call.
extension ManagedObject {
    /// Inserts `objects` so that each ends up at the matching index of `indexes`, in ascending order.
    public func insertObjects(_ objects: [ManagedObject], inRelationship key: String, at indexes: NSIndexSet) {
        for (object, index) in zip(objects, Self.ascending(indexes)) {
            insertObject(object, inRelationship: key, at: index)
        }
    }

    /// Removes the objects at `indexes`.
    public func removeObjects(inRelationship key: String, at indexes: NSIndexSet) {
        for index in Self.ascending(indexes).reversed() {
            removeObject(inRelationship: key, at: index)
        }
    }

    /// Replaces the objects at `indexes` with `objects`, one for one.
    public func replaceObjects(inRelationship key: String, at indexes: NSIndexSet, with objects: [ManagedObject]) {
        for (object, index) in zip(objects, Self.ascending(indexes)) {
            replaceObject(inRelationship: key, at: index, with: object)
        }
    }

    private static func ascending(_ indexes: NSIndexSet) -> [Int] {
        var result = [Int]()
        var index = indexes.firstIndex
        while index != NSNotFound {
            result.append(index)
            index = indexes.indexGreaterThanIndex(index)
        }
        return result
    }
}
