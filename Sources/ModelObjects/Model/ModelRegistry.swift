/// The models of the coordinators made so far in the process, held weakly, newest first, with
/// each coordinator's classes: where a managed object class finds its entity without a context
/// (`NSManagedObject.entity()`, `init()`).
final class ModelRegistry: Sendable {
    static let shared = ModelRegistry()

    /// A coordinator's model and classes, held without keeping them alive.
    private struct Entry {
        weak var model: ManagedObjectModel?
        weak var classes: ManagedObjectClasses?
    }

    private let entries = Mutex<[Entry]>([])

    /// Adds `model`, with the classes of the coordinator using it, dropping the entries of models gone since.
    func register(_ model: ManagedObjectModel, classes: ManagedObjectClasses) {
        entries.withLock { entries in
            entries.removeAll { $0.model == nil || $0.model === model }
            entries.insert(Entry(model: model, classes: classes), at: 0)
        }
    }

    /// The entity whose class is `type`: the one of the newest coordinator that made objects of
    /// this very class, else that of the newest model naming the class (by its name, or by its
    /// module and name when the model qualifies it). Two modules' classes of one name are thus
    /// told apart once either made an object, as Core Data tells them apart by class.
    func entity(of type: ManagedObject.Type) -> EntityDescription? {
        let live = entries.withLock { $0.compactMap { entry in entry.model.map { ($0, entry.classes) } } }
        if let known = live.lazy.compactMap({ $0.1?.knownEntity(of: type) }).first { return known }
        let name = String(describing: type)
        let qualified = String(reflecting: type)
        return live.lazy.compactMap { model, _ in
            model.entity(forClassNamed: name).flatMap { entity in
                guard let written = entity.managedObjectClassName, written.contains("."), !written.hasPrefix("$(") else { return entity }
                return written == qualified ? entity : nil
            }
        }.first
    }
}

extension ManagedObject {
    /// The entity whose class is this one, in the newest model of a coordinator made so far
    /// (what `NSManagedObject.entity()` answers); nil when no such model has one.
    public class var registeredEntity: EntityDescription? {
        ModelRegistry.shared.entity(of: self)
    }
}
