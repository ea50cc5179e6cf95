import Foundation

/// An inserted object whose values of a uniqueness constraint another object already has
/// (`NSConstraintConflict`): a stored row (`databaseObject`, with its values), or, when
/// `databaseObject` is nil, other objects inserted in the same save.
public final class ConstraintConflict: @unchecked Sendable, CustomStringConvertible {
    /// The constraint's property names.
    public let constraint: [String]
    /// The values they share, by name.
    public let constraintValues: [String: Any]
    /// The stored object that holds the values, when the conflict is with the store.
    public let databaseObject: ManagedObject?
    /// The stored object's values, by name.
    public let databaseSnapshot: [String: Any]?
    /// The objects of this context that hold the values.
    public let conflictingObjects: [ManagedObject]
    /// Their saved values (`NSNull` for new objects, which have none).
    public let conflictingSnapshots: [Any]

    init(constraint: [String], constraintValues: [String: Any], databaseObject: ManagedObject?, databaseSnapshot: [String: Any]?, conflictingObjects: [ManagedObject]) {
        self.constraint = constraint
        self.constraintValues = constraintValues
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjects = conflictingObjects
        conflictingSnapshots = conflictingObjects.map { _ in NSNull() }
    }

    /// The constraint and what the conflict is with.
    public var description: String {
        "ConstraintConflict(\(constraint), \(databaseObject.map { "stored \($0.objectID)" } ?? "\(conflictingObjects.count) new objects"))"
    }
}
