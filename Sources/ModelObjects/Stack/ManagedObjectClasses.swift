import Foundation

/// The class of each entity's objects: a generated class once it has been used (made, fetched),
/// else found by the name the model gives it: as written when qualified (`Module.Item`), else in
/// a module of a class already seen or of code that made a request (``noteModule(ofFileID:)``);
/// `ManagedObject` otherwise, as Core Data uses `NSManagedObject` for a class it cannot load.
final class ManagedObjectClasses: @unchecked Sendable {
    private let lock = NSLock()
    private var byEntity: [String: ManagedObject.Type] = [:]
    private var modules: Set<String> = []
    /// The entity of each class that made objects with `init(context:)`, found by its name once.
    private var entitiesByClass: [ObjectIdentifier: EntityDescription] = [:]

    func register(_ type: ManagedObject.Type, for entity: EntityDescription) {
        lock.withLock { registerLocked(type, for: entity) }
    }

    /// ``register(_:for:)`` with the lock held.
    private func registerLocked(_ type: ManagedObject.Type, for entity: EntityDescription) {
        guard type != ManagedObject.self else { return }
        byEntity[entity.name] = type
        let qualified = String(reflecting: type)
        if let dot = qualified.lastIndex(of: ".") { learn(module: String(qualified[..<dot])) }
    }

    /// The entity of `model` whose class `type` is, registered as that entity's class; found by
    /// the class's name the first time only (a name is made and compared, entity by entity).
    func entity(of type: ManagedObject.Type, in model: ManagedObjectModel) -> EntityDescription? {
        if let known = lock.withLock({ entitiesByClass[ObjectIdentifier(type)] }) { return known }
        guard let entity = model.entity(forClassNamed: String(describing: type)) else { return nil }
        lock.withLock {
            entitiesByClass[ObjectIdentifier(type)] = entity
            registerLocked(type, for: entity)
        }
        return entity
    }

    /// The entity of `type` when this coordinator made objects of that very class, else nil.
    func knownEntity(of type: ManagedObject.Type) -> EntityDescription? {
        lock.withLock { entitiesByClass[ObjectIdentifier(type)] }
    }

    /// Looks for classes also in the module of the source file `fileID` (`#fileID`, `Module/File.swift`).
    func noteModule(ofFileID fileID: String) {
        guard let slash = fileID.firstIndex(of: "/"), slash > fileID.startIndex else { return }
        lock.withLock { learn(module: String(fileID[..<slash])) }
    }

    /// Adds `module` to those searched; a new one may hold the classes of entities that had none so far.
    private func learn(module: String) {
        if modules.insert(module).inserted { byEntity = byEntity.filter { $0.value != ManagedObject.self } }
    }

    func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        lock.withLock {
            if let known = byEntity[entity.name] { return known }
            let found = Self.find(entity.managedObjectClassName ?? entity.name, in: modules)
            byEntity[entity.name] = found ?? ManagedObject.self
            return found ?? ManagedObject.self
        }
    }

    /// Whether the model names a class of its own for `entity`'s objects (not `NSManagedObject`).
    static func namesOwnClass(_ entity: EntityDescription) -> Bool {
        guard let name = entity.managedObjectClassName.map(ManagedObjectModel.unqualified), !name.isEmpty else { return false }
        return name != "NSManagedObject" && name != "ManagedObject"
    }

    /// The subclass of `ManagedObject` the model calls `written`: that name as it is, then its last
    /// part in each of `modules`.
    private static func find(_ written: String, in modules: Set<String>) -> ManagedObject.Type? {
        if written.contains("."), let found = _typeByName(written) as? ManagedObject.Type { return found }
        let name = ManagedObjectModel.unqualified(written)
        for module in modules.sorted() {
            if let found = _typeByName("\(module).\(name)") as? ManagedObject.Type { return found }
        }
        return nil
    }
}
