import SwiftSyntax

/// A `@Managed var`: its key and the getter that reads it as its declared type, with Xcode's
/// conversions (optional objects nil when unset, scalars 0 or false when unset).
struct ManagedProperty {
    /// The property's key in the model: its name without backquotes.
    let key: String
    /// The getter's expression, reading the key of ``keyType``.
    let getter: String

    /// The scalar types Xcode declares non-optional, and their value when the property is nil.
    static let scalarZeros: [String: String] = [
        "Int16": "0", "Int32": "0", "Int64": "0", "Int": "0", "Double": "0", "Float": "0", "Bool": "false",
    ]

    init(_ declaration: some DeclSyntaxProtocol) throws {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var),
            variable.bindings.count == 1, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)
        else {
            throw managedMacroError("@Managed applies to one 'var name: Type'", at: Syntax(declaration))
        }
        guard let type = binding.typeAnnotation?.type else {
            throw managedMacroError("@Managed var '\(name.identifier.text)' needs its type written", at: Syntax(binding))
        }
        if let initializer = binding.initializer {
            throw managedMacroError("@Managed var takes its value from the object: remove the initial value", at: Syntax(initializer))
        }
        key = name.identifier.identifier?.name ?? name.identifier.text
        let typeName = type.trimmedDescription
        if let wrapped = Self.wrapped(type) {
            getter = "managedValue(for: Property.key, as: \(wrapped.trimmedDescription).self)"
        } else if let zero = Self.scalarZeros[typeName] {
            getter = "managedValue(for: Property.key, as: \(typeName).self) ?? \(zero)"
        } else {
            getter = "requiredManagedValue(for: Property.key, as: \(typeName).self)"
        }
    }

    /// The local type each accessor finds the property's key in: a `ManagedPropertyKey` made
    /// once, which finds the property in the entity without comparing names.
    var keyType: String {
        "enum Property { static let key = ManagedPropertyKey(\(StringLiteralExprSyntax(content: key).description)) }"
    }

    /// The type inside `T?`, `T!` or `Optional<T>`; nil for a type that is not optional.
    static func wrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrapped.wrappedType }
        if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "Optional",
            let arguments = generic.genericArgumentClause?.arguments, arguments.count == 1, let argument = arguments.first
        {
            return Syntax(argument.argument).as(TypeSyntax.self)
        }
        return nil
    }
}
