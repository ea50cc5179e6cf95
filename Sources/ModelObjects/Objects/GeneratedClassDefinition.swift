/// A class whose whole body modelc's code generation writes (an entity's codegen "Class
/// Definition", on `ManagedObject` itself): its generated file declares it, naming the class.
/// Swift lets no extension override a method, so such a class overrides none of
/// ``ManagedObject``'s, where a subclass of it, or a class written by hand, may. A save then
/// checks its objects' attributes that no rule of the model constrains without making each value
/// for a `validateValue(_:forKey:)` that could only pass it. For generated code only: a class
/// written by hand that declares it would have its validation overrides skipped.
public protocol GeneratedClassDefinition: ManagedObject {
    /// The generated class itself: an object of a subclass of it is not of a generated class.
    static var generatedClass: ManagedObject.Type { get }
}

extension ObjectValidator {
    /// Whether objects of a class validate as ``ManagedObject`` itself does (no override can be
    /// in the way), remembered for the class last asked about: a save's objects come in runs
    /// of one class.
    struct DefaultValidation {
        private var type: ObjectIdentifier?
        private var keeps = false

        /// Whether `object`'s class is `ManagedObject` or a generated class definition.
        mutating func isKept(by object: ManagedObject) -> Bool {
            let objectType = Swift.type(of: object)
            guard ObjectIdentifier(objectType) != type else { return keeps }
            type = ObjectIdentifier(objectType)
            keeps = objectType == ManagedObject.self || (objectType as? any GeneratedClassDefinition.Type)?.generatedClass == objectType
            return keeps
        }
    }
}
