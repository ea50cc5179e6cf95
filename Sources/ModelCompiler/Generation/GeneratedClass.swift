import ModelSchema

/// What Xcode's code generation writes for one entity: its class name, its superclass, and
/// whether the class itself is generated or only its properties.
public struct GeneratedClass: Sendable, Hashable {
    /// Xcode's "Codegen" setting (`codeGenerationType`) of an entity that gets code.
    public enum Kind: String, Sendable, Hashable {
        /// Class Definition: both the class and its properties are generated.
        case classDefinition = "class"
        /// Category/Extension: only the properties; the developer writes the class.
        case category
    }

    public var entity: Entity
    public var kind: Kind
    /// The Swift class: the entity's `representedClassName` without its module, or its name.
    public var className: String
    /// The parent entity's class, or `ManagedObject` for a root entity or a parent without one.
    public var superclassName: String

    /// The class `NSManagedObject` stands for in the object layer.
    public static let baseClassName = "ManagedObject"

    /// The classes of `version`'s entities whose codegen is `class` or `category`, in the
    /// model's order; entities set to Manual/None, or whose class is `NSManagedObject`, get none.
    public static func all(in version: ModelVersion) -> [GeneratedClass] {
        let byName = Dictionary(version.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return version.entities.compactMap { entity -> GeneratedClass? in
            guard let kind = entity.codeGenerationType.flatMap(Kind.init(rawValue:)),
                let name = className(of: entity, generated: true)
            else { return nil }
            let parent = entity.parentEntityName.flatMap { byName[$0] }
            let superclass = parent.flatMap { className(of: $0, generated: $0.codeGenerationType.flatMap(Kind.init(rawValue:)) != nil) }
            return GeneratedClass(entity: entity, kind: kind, className: name, superclassName: superclass ?? baseClassName)
        }
    }

    /// The Swift class of `entity`: its `representedClassName` without a module prefix
    /// (`$(PRODUCT_MODULE_NAME).Item`, `.Item`); with code generated and no class name, the
    /// entity's name, as Xcode's editor fills it in; nil for `NSManagedObject` or none at all.
    static func className(of entity: Entity, generated: Bool) -> String? {
        guard let written = entity.representedClassName else { return generated ? entity.name : nil }
        let name = written.split(separator: ".").last.map(String.init) ?? ""
        return name.isEmpty || name == "NSManagedObject" ? nil : name
    }

    /// The class a relationship's destination objects have: the destination entity's class
    /// when it has one, `ManagedObject` otherwise.
    static func className(ofDestination name: String, in version: ModelVersion) -> String {
        guard let entity = version.entity(named: name) else { return baseClassName }
        let generated = entity.codeGenerationType.flatMap(Kind.init(rawValue:)) != nil
        return className(of: entity, generated: generated) ?? baseClassName
    }
}
