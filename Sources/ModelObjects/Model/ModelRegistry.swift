/// The models of the coordinators made so far in the process, held weakly, newest first: where
/// a managed object class finds its entity without a context (`NSManagedObject.entity()`).
final class ModelRegistry: Sendable {
    static let shared = ModelRegistry()

    /// A model held without keeping it alive.
    private struct Entry {
        weak var model: ManagedObjectModel?
    }

    private let entries = Mutex<[Entry]>([])

    /// Adds `model`, dropping the entries of models gone since.
    func register(_ model: ManagedObjectModel) {
        entries.withLock { entries in
            entries.removeAll { $0.model == nil || $0.model === model }
            entries.insert(Entry(model: model), at: 0)
        }
    }

    /// The entity whose class is `type`, in the newest model that has one.
    func entity(of type: ManagedObject.Type) -> EntityDescription? {
        let name = String(describing: type)
        let models = entries.withLock { $0.compactMap(\.model) }
        return models.lazy.compactMap { $0.entity(forClassNamed: name) }.first
    }
}

extension ManagedObject {
    /// The entity whose class is this one, in the newest model of a coordinator made so far
    /// (what `NSManagedObject.entity()` answers); nil when no such model has one.
    public class var registeredEntity: EntityDescription? {
        ModelRegistry.shared.entity(of: self)
    }
}
