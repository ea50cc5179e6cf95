import GRDB
import ModelSchema
import ModelStore

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

    public let name: String
    /// `representedClassName`, the class Xcode generates for the entity.
    public let managedObjectClassName: String?
    public let isAbstract: Bool
    public let superentityName: String?
    /// The entity's own model description.
    public let entity: Entity
    public let attributes: [Attribute]
    public let relationships: [Relationship]
    let shape: EntityRowShape
    let properties: [String: Property]
    /// The stored attributes in the order of the row's attribute slots.
    let slotAttributes: [Attribute]
    /// Each attribute's starting value in a new object, as its column would hold it (null when none).
    let defaultValues: [(name: String, type: AttributeType, value: DatabaseValue)]

    init(_ entity: Entity, shape: EntityRowShape, entities: EntityHierarchy) {
        name = entity.name
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
        self.properties = properties
        let byName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        slotAttributes = shape.attributes.compactMap { byName[$0.name] }
        defaultValues = attributes.map { attribute in
            (attribute.name, attribute.type, DefaultValue.column(attribute))
        }
    }

    /// The attributes by name, inherited ones included.
    public var attributesByName: [String: Attribute] { Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// The relationships by name, inherited ones included.
    public var relationshipsByName: [String: Relationship] {
        Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var description: String { "entity \(name)" }
}
