import Foundation
import ModelSchema
import ModelStore
import Synchronization

/// One version of a model as the object layer uses it (`NSManagedObjectModel`): its entities by
/// name, each with the place of its properties in the store's rows.
public final class ManagedObjectModel: Sendable {
    /// The compiled model version the model describes, whose entity hashes identify the stores it opens.
    public let version: ModelVersion
    /// Where each entity's rows and links are in a store of this version.
    package let rows: ObjectRowLayout
    /// The entities by name (`NSManagedObjectModel.entitiesByName`), for fetch requests and
    /// inserts that name an entity.
    public let entitiesByName: [String: EntityDescription]
    /// A number no other model of this process has, which its entities carry: an object's entity
    /// is told to be this model's without a lookup.
    let serial: UInt64 = ManagedObjectModel.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)

    /// The model of `version` (`NSManagedObjectModel(contentsOf:)` over a compiled version): its
    /// entities with the place of their properties in the store's rows, worked out once here.
    public init(_ version: ModelVersion) {
        self.version = version
        rows = ObjectRowLayout(version, layout: StoreLayout(version))
        var byName = [String: EntityDescription]()
        for entity in version.entities {
            guard let shape = rows.shape(named: entity.name) else { continue }
            byName[entity.name] = EntityDescription(entity, shape: shape, entities: rows.entities, model: serial)
        }
        entitiesByName = byName
    }

    /// The entities in the model's order (`NSManagedObjectModel.entities`), for code that walks
    /// the whole model.
    public var entities: [EntityDescription] { version.entities.compactMap { entitiesByName[$0.name] } }

    /// The entity whose class is named `className` (without its module), or whose name it is.
    func entity(forClassNamed className: String) -> EntityDescription? {
        entities.first { $0.managedObjectClassName.map(Self.unqualified) == className } ?? entitiesByName[className]
    }

    /// `Module.Item` or `$(PRODUCT_MODULE_NAME).Item` without the module.
    static func unqualified(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}
