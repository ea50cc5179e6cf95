import GRDB
import ModelSchema
import ModelStore
import Synchronization

/// An entity of the model (`NSEntityDescription`): its properties, inherited ones included, and
/// where each stored one is in the entity's row.
public final class EntityDescription: Sendable, CustomStringConvertible {
    /// What a property is, and where the object keeps its value.
    indirect enum Property: Sendable {
        /// A stored attribute: its index in the row's attribute values.
        case attribute(Attribute, slot: Int)
        /// A transient attribute, kept in memory only.
        case transient(Attribute)
        /// A to-one relationship: its index in the row's to-ones (nil when transient).
        case toOne(Relationship, slot: Int?)
        case toMany(Relationship)
    }

    /// The entity's name in the model (`NSEntityDescription.name`), by which fetch requests
    /// (`FetchRequest(entityName:)`) and the model's `entitiesByName` find it.
    public let name: String
    /// The class Xcode generates for the entity, the model's `representedClassName`
    /// (`NSEntityDescription.managedObjectClassName`): where `entity()` finds its entity.
    public let managedObjectClassName: String?
    /// Whether the entity has no instances of its own, only its subentities' (`NSEntityDescription.isAbstract`).
    public let isAbstract: Bool
    /// The name of the entity this one inherits its properties from, nil for a root: Core Data's
    /// `superentity` by name, since a description does not hold the model it belongs to.
    public let superentityName: String?
    /// The entity as the compiled model describes it (ModelSchema's `Entity`), with what this
    /// description does not repeat: its user info, fetch indexes and uniqueness constraints.
    public let entity: Entity
    /// The stored and transient attributes, inherited ones first, as `NSEntityDescription`'s
    /// `attributesByName` holds them, in the model's order.
    public let attributes: [Attribute]
    /// The relationships, inherited ones first, as `NSEntityDescription`'s `relationshipsByName`
    /// holds them, in the model's order.
    public let relationships: [Relationship]
    let shape: EntityRowShape
    let properties: PropertyTable
    /// A number no other entity description of this process has (from 1; a process makes far
    /// fewer than 2^40), by which a ``ManagedPropertyKey`` knows the entity it last found its property in.
    let serial: UInt64 = EntityDescription.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)
    /// The `serial` of the model the entity belongs to.
    let modelSerial: UInt64
    /// The stored attributes in the order of the row's attribute slots.
    let slotAttributes: [Attribute]
    /// What `value(forKey:)` and `setValue(_:forKey:)` need of each slot, without the strings of
    /// its description (reading a field of a larger struct in an array can copy it whole).
    let slotKinds: [SlotKind]

    struct SlotKind: Sendable {
        let type: AttributeType
        let isDerived: Bool
    }
    /// A new object's stored attributes' starting values, by slot, kept as an object's values
    /// are, for a new object to start from; and its transient attributes' ones, by name (values
    /// of Foundation's immutable value types).
    nonisolated(unsafe) let defaultValues: AttributeValues
    nonisolated(unsafe) let transientDefaults: [(name: String, value: Any)]
    /// Whether a row slot holds a transformable attribute, whose saved form is its data.
    let hasTransformableSlots: Bool
    /// The uniqueness constraints of the entity and its superentities made of stored attributes:
    /// their property names and the attributes' slots.
    let constraints: [(names: [String], slots: [Int])]
    /// The attributes a save checks through `validateValue(_:forKey:)` (all but derived ones), each
    /// with its index in ``properties`` and its row slot (-1 for a transient).
    let validatedAttributes: [(name: String, index: Int, slot: Int)]
    /// The entity and empty store part every temporary ID of the entity's new objects shares.
    let temporaryIDScope: ManagedObjectID.Scope

    init(_ entity: Entity, shape: EntityRowShape, entities: EntityHierarchy, model: UInt64) {
        modelSerial = model
        name = entity.name
        temporaryIDScope = ManagedObjectID.Scope(entityName: entity.name, storeIdentifier: "")
        self.entity = entity
        managedObjectClassName = entity.representedClassName
        isAbstract = entity.isAbstract
        superentityName = entity.parentEntityName
        self.shape = shape
        let lineage = entities.lineage(of: entity).reversed()
        attributes = lineage.flatMap(\.attributes)
        relationships = lineage.flatMap(\.relationships)
        var properties = [String: Property]()
        let attributeSlots = Dictionary(shape.attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let toOneSlots = Dictionary(shape.toOnes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for attribute in attributes {
            if let slot = attributeSlots[attribute.name] {
                properties[attribute.name] = .attribute(attribute, slot: slot)
            } else {
                properties[attribute.name] = .transient(attribute)
            }
        }
        for relationship in relationships {
            properties[relationship.name] = relationship.isToMany ? .toMany(relationship) : .toOne(relationship, slot: toOneSlots[relationship.name])
        }
        let table = PropertyTable(properties)
        self.properties = table
        let byName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        slotAttributes = shape.attributes.compactMap { byName[$0.name] }
        defaultValues = AttributeValues(
            slotAttributes.map { attribute in
                let value = DefaultValue.column(attribute)
                return value.isNull ? nil : StoredValue.object(value, as: attribute.type)
            })
        let slotByName = Dictionary(shape.attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        constraints = lineage.flatMap(\.uniquenessConstraints).compactMap { names in
            let slots = names.compactMap { slotByName[$0] }
            return slots.count == names.count ? (names, slots) : nil
        }
        slotKinds = shape.attributes.map { SlotKind(type: $0.type, isDerived: $0.isDerived) }
        hasTransformableSlots = slotAttributes.contains { $0.type == .transformable }
        transientDefaults = attributes.compactMap { attribute in
            guard case .transient? = properties[attribute.name] else { return nil }
            let value = DefaultValue.column(attribute)
            return StoredValue.object(value, as: attribute.type).map { (attribute.name, $0) }
        }
        validatedAttributes = attributes.compactMap { attribute in
            guard !attribute.isDerived, let index = table.index(of: attribute.name) else { return nil }
            return (attribute.name, index, table.attributeSlot(at: index))
        }
    }

    /// The attributes by name, inherited ones included (`NSEntityDescription.attributesByName`),
    /// for code that looks an attribute up by its key.
    public var attributesByName: [String: Attribute] { Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// The relationships by name, inherited ones included (`NSEntityDescription.relationshipsByName`),
    /// for code that looks a relationship up by its key.
    public var relationshipsByName: [String: Relationship] {
        Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether objects of `other` are kept and stored as this entity's are: the same entity,
    /// properties (inherited ones too) and numbers, each value in the same slot and column, as
    /// in two loads of one model.
    func isInterchangeable(with other: EntityDescription) -> Bool {
        if self === other { return true }
        let (mine, theirs) = (shape, other.shape)
        return entity == other.entity && attributes == other.attributes && relationships == other.relationships
            && mine.number == theirs.number && mine.rootNumber == theirs.rootNumber && mine.table == theirs.table
            && mine.attributes.map(\.column) == theirs.attributes.map(\.column) && mine.toOnes.map(\.column) == theirs.toOnes.map(\.column)
            && slotAttributes == other.slotAttributes
    }

    /// `entity Name`: the entity's name, for messages and debugging.
    public var description: String { "entity \(name)" }
}
