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
