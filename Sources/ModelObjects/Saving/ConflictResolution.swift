import ModelExpression
import ModelStore

/// How a save settles an object whose row changed or went in the store since it was read, under
/// the context's merge policy (the table, with its evidence, is in Documentation/MergePolicies.md):
/// the error policy reports it; rollback and store trump keep the store's changes (store trump
/// keeps the context's changes of properties the store did not change); object trump writes the
/// context's changes over the store's changed row; overwrite writes the whole object as the
/// context sees it. A row that went stays gone: its object is forgotten as a deleted one.
enum ConflictResolution {
    /// Write this object's changes (`skipping` the slots the store's values win) at the row's version.
    case write(current: StoredObject, skippingAttributes: Set<Int>, skippingToOnes: Set<Int>, everything: Bool)
    /// Write nothing for this object; it takes the row's values (and, deleted, is deleted no more).
    case takeStore(current: StoredObject)
    /// The row is gone: nothing to write; the object leaves the context.
    case gone

    init(_ policy: MergePolicy, object: ManagedObject, current: StoredObject?) {
        guard let current else {
            self = .gone
            return
        }
        switch policy.mergeType {
        case .rollbackMergePolicyType, .errorMergePolicyType:
            self = .takeStore(current: current)
        case .mergeByPropertyStoreTrumpMergePolicyType where object.deleted:
            self = .takeStore(current: current)
        case .mergeByPropertyStoreTrumpMergePolicyType:
            // The properties the store changed since the context read the row keep the store's values.
            let committed = object.committed ?? []
            let attributes = Set(current.attributes.indices.filter { slot in
                slot < committed.count && Self.differ(current.attributes[slot], committed[slot])
            })
            let (stored, saved) = (current.toOnes, object.committedToOnes)
            let toOnes = Set(stored.indices.filter { slot in slot < saved.count && stored[slot] != saved[slot] })
            self = .write(current: current, skippingAttributes: attributes, skippingToOnes: toOnes, everything: false)
        case .mergeByPropertyObjectTrumpMergePolicyType:
            self = .write(current: current, skippingAttributes: [], skippingToOnes: [], everything: false)
        case .overwriteMergePolicyType:
            self = .write(current: current, skippingAttributes: [], skippingToOnes: [], everything: true)
        }
    }

    /// Whether the object's own changes are written.
    var writesObject: Bool {
        if case .write = self { return true }
        return false
    }

    private static func differ(_ a: Any?, _ b: Any?) -> Bool {
        func evaluated(_ value: Any?) -> EvaluatedValue { value.flatMap { try? PredicateArgument.value($0) } ?? .null }
        return evaluated(a) != evaluated(b)
    }
}
