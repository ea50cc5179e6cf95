import SwiftSyntax

/// One of Xcode's generated to-many accessors (`addToItems(_:)`, `insertIntoItems(_:at:)`, …)
/// and the object layer's mutator call that implements it.
///
/// The relationship's key is the name after the verb with its first letter lowered
/// (`addToItems` → `items`), as Core Data maps `addItemsObject:` to `items`; a name that
/// starts with an acronym (`addToURLs`) keeps it (`URLs`).
struct ManagedAccessor {
    /// The mutator call, the func's whole body.
    let call: String

    private static let verbs = ["addTo", "removeFrom", "insertInto", "replace"]

    init(_ function: FunctionDeclSyntax) throws {
        let name = function.name.text
        guard let verb = Self.verbs.first(where: { name.hasPrefix($0) && name.count > $0.count }) else {
            throw managedMacroError(
                "@ManagedAccessor func must be a generated to-many accessor: addTo…, removeFrom…, insertInto… or replace…",
                at: Syntax(function.name))
        }
        let key = StringLiteralExprSyntax(content: Self.key(String(name.dropFirst(verb.count)))).description
        let parameters = function.signature.parameterClause.parameters.map { parameter in
            (label: parameter.firstName.text, name: (parameter.secondName ?? parameter.firstName).text,
             type: parameter.type.trimmedDescription)
        }
        let labels = parameters.map(\.label)
        let isIndexSet = parameters.first { $0.label == "at" }.map { ["NSIndexSet", "IndexSet"].contains($0.type) } ?? false
        let isCollection = parameters.first.map { ["NSSet", "NSOrderedSet"].contains($0.type) } ?? false
        let value = parameters.first?.name ?? ""
        switch (verb, labels) {
        case ("addTo", ["_"]):
            call = isCollection ? "addObjects(\(value), toRelationship: \(key))" : "addObject(\(value), toRelationship: \(key))"
        case ("removeFrom", ["_"]):
            call = isCollection ? "removeObjects(\(value), fromRelationship: \(key))" : "removeObject(\(value), fromRelationship: \(key))"
        case ("removeFrom", ["at"]):
            call = "remove\(isIndexSet ? "Objects" : "Object")(inRelationship: \(key), at: \(value))"
        case ("insertInto", ["_", "at"]):
            call = "insert\(isIndexSet ? "Objects" : "Object")(\(value), inRelationship: \(key), at: \(parameters[1].name))"
        case ("replace", ["at", "with"]):
            call = "replace\(isIndexSet ? "Objects" : "Object")(inRelationship: \(key), at: \(value), with: \(parameters[1].name))"
        default:
            throw managedMacroError(
                "@ManagedAccessor func '\(name)' does not have the parameters of Xcode's generated accessor", at: Syntax(function.signature))
        }
    }

    /// The relationship key of the name after an accessor's verb.
    static func key(_ suffix: String) -> String {
        let characters = Array(suffix)
        if characters.count > 1, characters[0].isUppercase, characters[1].isUppercase { return suffix }
        return suffix.prefix(1).lowercased() + suffix.dropFirst()
    }
}
