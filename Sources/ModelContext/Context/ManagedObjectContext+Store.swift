import Foundation
import GRDB
import ModelStore

/// How a context reaches its store and turns rows into registered objects: each object once per
/// context, a fault until its row is read, its class the entity's generated one when known.
extension ManagedObjectContext {
    func coordinator() throws -> PersistentStoreCoordinator {
        guard let coordinator = persistentStoreCoordinator else {
            throw ContextError.make(134060, "the context has no persistent store coordinator")
        }
        return coordinator
    }

    func rows() throws -> ObjectRowLayout { try coordinator().managedObjectModel.rows }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try coordinator().store().database.read(body)
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try coordinator().store().database.write(body)
    }

    /// The row of a permanent ID; nil for a temporary one.
    func objectKey(of id: ManagedObjectID) throws -> ObjectKey? {
        guard let key = id.primaryKey, let shape = try rows().shape(named: id.entityName) else { return nil }
        return ObjectKey(number: shape.number, key: key)
    }

    /// The ID of the row `key`.
    func objectID(of key: ObjectKey) throws -> ManagedObjectID? {
        guard let shape = try rows().shape(number: key.number) else { return nil }
        return ManagedObjectID(entityName: shape.name, storeIdentifier: try coordinator().storeIdentifier(), primaryKey: key.key)
    }

    /// The registered object of the row `key`, or a new fault for it.
    func registeredOrFault(_ key: ObjectKey) -> ManagedObject? {
        guard let id = try? objectID(of: key) else { return nil }
        if let known = registered[id] { return known }
        guard let entity = persistentStoreCoordinator?.managedObjectModel.entitiesByName[id.entityName] else { return nil }
        return makeObject(entity, id: id)
    }

    /// A registered fault of `entity`'s class for `id`.
    func makeObject(_ entity: EntityDescription, id: ManagedObjectID) -> ManagedObject {
        let object = persistentStoreCoordinator?.classes.objectClass(for: entity).init(entity: entity, insertInto: nil)
            ?? ManagedObject(entity: entity, insertInto: nil)
        object.attach(to: self, id: id)
        registered[id] = object
        return object
    }

    /// The registered object of a row just read, its saved values set from the row unless it
    /// had them already (the context's view of an object does not change under it).
    func materialize(_ stored: StoredObject) throws -> ManagedObject {
        let key = ObjectKey(number: stored.number, key: stored.key)
        guard let object = registeredOrFault(key) else { throw ContextError.make(134060, "the store has a row of an entity the model lacks") }
        if object.committed == nil, !object.inserted { fill(object, from: stored) }
        return object
    }

    func fill(_ object: ManagedObject, from stored: StoredObject) {
        object.committed = stored.attributes
        object.committedToOnes = stored.toOnes
        object.version = stored.version
    }

    /// Reads a fault's row; a row that is gone leaves the object empty (Core Data raises there).
    func fulfill(_ object: ManagedObject) {
        guard object.committed == nil, !object.inserted, let key = try? objectKey(of: object.objectID) else { return }
        if let stored = (try? read { try ObjectRowReader(db: $0, rows: self.rows()).object(key) }) ?? nil {
            fill(object, from: stored)
        } else {
            object.committed = Array(repeating: nil, count: object.entity.shape.attributes.count)
            object.committedToOnes = Array(repeating: nil, count: object.entity.shape.toOnes.count)
        }
    }

    /// Makes `type` its entity's class when the model has an entity of that class, so that a
    /// fetch of `FetchRequest<Item>` gives `Item`s before any `Item` was made.
    func learnClass(_ type: ManagedObject.Type) {
        guard type != ManagedObject.self, let coordinator = persistentStoreCoordinator,
            let entity = coordinator.managedObjectModel.entity(forClassNamed: String(describing: type))
        else { return }
        coordinator.classes.register(type, for: entity)
    }

    /// The entity of a managed object class: the one whose class name (or, failing that, whose
    /// name) is the class's.
    func entity(for type: ManagedObject.Type) -> EntityDescription {
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("\(type) cannot be made in a context without a persistent store coordinator")
        }
        let name = String(describing: type)
        guard let entity = coordinator.managedObjectModel.entity(forClassNamed: name) else {
            preconditionFailure("the model has no entity whose class is \(name)")
        }
        coordinator.classes.register(type, for: entity)
        return entity
    }
}
