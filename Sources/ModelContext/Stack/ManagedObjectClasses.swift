import Foundation

/// The class of each entity's objects: a generated class once it has been used (made, fetched),
/// or found by its name in a module of a class already seen; `ManagedObject` otherwise.
final class ManagedObjectClasses: @unchecked Sendable {
    private let lock = NSLock()
    private var byEntity: [String: ManagedObject.Type] = [:]
    private var modules: Set<String> = []

    func register(_ type: ManagedObject.Type, for entity: EntityDescription) {
        guard type != ManagedObject.self else { return }
        lock.withLock {
            byEntity[entity.name] = type
            let qualified = String(reflecting: type)
            if let dot = qualified.lastIndex(of: "."), modules.insert(String(qualified[..<dot])).inserted {
                // A new module may hold the classes of entities that had none so far.
                byEntity = byEntity.filter { $0.value != ManagedObject.self }
            }
        }
    }

    func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        lock.withLock {
            if let known = byEntity[entity.name] { return known }
            let name = ManagedObjectModel.unqualified(entity.managedObjectClassName ?? entity.name)
            for module in modules.sorted() {
                if let found = _typeByName("\(module).\(name)") as? ManagedObject.Type {
                    byEntity[entity.name] = found
                    return found
                }
            }
            byEntity[entity.name] = ManagedObject.self
            return ManagedObject.self
        }
    }
}
