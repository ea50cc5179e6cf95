/// `@Managed`, written where Core Data code writes `@NSManaged` on a property: on `var name: Type`
/// in a managed object's class or in an extension of it, a getter and setter through
/// `value(forKey:)` and `setValue(_:forKey:)`.
@attached(accessor, names: named(get), named(set))
public macro Managed() = #externalMacro(module: "ModelMacros", type: "ManagedPropertyMacro")

/// `@ManagedAccessor`, written where Core Data code writes `@NSManaged` on a generated to-many
/// accessor: on a body-less `func addToItems(_ value: Item)`, `insertIntoItems(_:at:)`, …, the
/// body that changes the relationship, named after the verb (`addToItems` → `items`).
///
/// It cannot be `@Managed` as well: Swift 6.3 resolves an attached macro by name and arguments
/// alone, not by the declaration it is on, and refuses a body macro on a property or an
/// accessor macro on a func.
@attached(body)
public macro ManagedAccessor() = #externalMacro(module: "ModelMacros", type: "ManagedAccessorMacro")
