import ModelSchema

/// One property of a generated class: its Swift type and how it reads its value through the
/// object layer (Swift on Linux has no `@NSManaged`), by a ``ManagedPropertyKey`` of the
/// extension's `PropertyKeys`, which finds the property without comparing names.
struct GeneratedProperty: Sendable, Hashable {
    /// The property's key in the model.
    var name: String
    /// The declared Swift type, `Int16` or `String?`.
    var type: String
    /// The getter's expression.
    var getter: String

    /// An attribute as Xcode types it for Swift: numbers and booleans whose "Use Scalar Type"
    /// is on (`usesScalarValueType="YES"`) as non-optional scalars, 0 or false when unset;
    /// every other type optional, numbers without a scalar as `NSNumber?`, decimals as the
    /// `Decimal` the object layer holds (Xcode's `NSDecimalNumber` with the `coreData` API),
    /// transformables as their custom class or `NSObject`.
    init(_ attribute: Attribute, api: GeneratedAPI) {
        name = attribute.name
        let key = Self.key(attribute.name)
        if attribute.usesScalarValueType == true, let scalar = Self.scalar(attribute.type) {
            type = scalar.type
            getter = "managedValue(for: \(key), as: \(scalar.type).self) ?? \(scalar.zero)"
            return
        }
        let wrapped = api == .coreData && attribute.type == .decimal ? "NSDecimalNumber" : api.name(Self.objectType(attribute))
        type = wrapped + "?"
        getter = "managedValue(for: \(key), as: \(wrapped).self)"
    }

    /// A to-one relationship as its destination's class, optional; a to-many as `NSSet?`, or
    /// `NSOrderedSet?` when ordered.
    init(_ relationship: Relationship, destinationClass: String) {
        name = relationship.name
        let wrapped = relationship.isToMany ? (relationship.isOrdered ? "NSOrderedSet" : "NSSet") : destinationClass
        type = wrapped + "?"
        getter = "managedValue(for: \(Self.key(relationship.name)), as: \(wrapped).self)"
    }

    /// The property's declaration with its getter and setter, indented for an extension.
    var declaration: String {
        """
            public var \(Self.identifier(name)): \(type) {
                get { \(getter) }
                set { setValue(newValue, for: \(Self.key(name))) }
            }
        """
    }

    /// The declaration of the property's key in the extension's `PropertyKeys`.
    var keyDeclaration: String {
        "        static let \(Self.identifier(name)) = ManagedPropertyKey(\(Self.literal(name)))"
    }

    /// The property as Xcode declares it, with `@Managed` for `@NSManaged`, indented for an extension.
    var managedDeclaration: String {
        "    @Managed public var \(Self.identifier(name)): \(type)"
    }

    // MARK: - Types

    private static func scalar(_ type: AttributeType) -> (type: String, zero: String)? {
        switch type {
        case .integer16: ("Int16", "0")
        case .integer32: ("Int32", "0")
        case .integer64: ("Int64", "0")
        case .double: ("Double", "0")
        case .float: ("Float", "0")
        case .boolean: ("Bool", "false")
        default: nil
        }
    }

    private static func objectType(_ attribute: Attribute) -> String {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "Decimal"
        case .string: "String"
        case .date: "Date"
        case .binary: "Data"
        case .uuid: "UUID"
        case .uri: "URL"
        case .transformable: attribute.customClassName.flatMap { $0.isEmpty ? nil : $0 } ?? "NSObject"
        case .objectID: "ManagedObjectID"
        case .composite: "[String: Any]"
        case .undefined: "NSObject"
        }
    }

    // MARK: - Spelling

    /// `name` as a Swift identifier, in backquotes when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The expression of the key of the property `name`.
    static func key(_ name: String) -> String {
        "PropertyKeys.\(identifier(name))"
    }

    /// `name` as a string literal (a model's names have no quote or backslash: validation refuses them).
    static func literal(_ name: String) -> String {
        "\"\(name)\""
    }

    /// The Swift keywords a property name must be quoted as.
    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]
}
