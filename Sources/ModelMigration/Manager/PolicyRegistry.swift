import ModelSchema

/// The Swift policies and policy functions a migration may use, by the names a mapping model
/// gives them: the class name of `NSEntityMigrationPolicy` subclasses, the selector of
/// `FUNCTION($entityPolicy, …)`.
///
/// A class name matches exactly, or without its module prefix (`App.Policy`,
/// `REPLACE_AT_RUNTIME.Policy` and `Policy` are the same policy), since Xcode writes either.
public struct PolicyRegistry {
    private var policies: [String: () -> any EntityMigrationPolicy] = [:]
    private var functions: [String: PolicyFunction] = [:]

    public init() {}

    // MARK: - Registering

    /// Registers the policy a mapping names `className`; `make` gives a fresh instance per entity
    /// mapping, as Core Data makes one per mapping.
    public mutating func register(className: String, policy make: @escaping () -> any EntityMigrationPolicy) {
        policies[className] = make
    }

    /// Registers the function `FUNCTION($entityPolicy, "selector", …)` calls.
    public mutating func register(selector: String, function: @escaping PolicyFunction) {
        functions[selector] = function
    }

    // MARK: - Looking up

    /// A new instance of the policy named `className`: the exact name first, then the name
    /// without its module prefix on either side; nil when none is registered.
    public func policy(named className: String) -> (any EntityMigrationPolicy)? {
        if let make = policies[className] { return make() }
        let bare = Self.unqualified(className)
        return policies.first { Self.unqualified($0.key) == bare }?.value()
    }

    /// The function registered for `selector`.
    public func function(for selector: String) -> PolicyFunction? {
        functions[selector]
    }

    /// `Policy` for `App.Policy`.
    static func unqualified(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The first policy or policy function `model` needs that is not registered, as a migration
    /// error naming it and its entity mapping; checked before anything is touched.
    func missing(in model: MappingModel, path: String) -> MigrationError? {
        for mapping in model.entityMappings {
            if let name = mapping.policyClassName, !name.isEmpty, policy(named: name) == nil {
                return MigrationError(
                    .missingPolicy, path: path,
                    message: "entity mapping '\(mapping.name)' of '\(model.name)' needs the migration policy '\(name)', which is not registered")
            }
            for property in mapping.attributeMappings + mapping.relationshipMappings {
                for selector in Self.policySelectors(in: property.valueExpression ?? "") where function(for: selector) == nil {
                    return MigrationError(
                        .missingPolicy, path: path,
                        message: "property mapping '\(property.name)' of entity mapping '\(mapping.name)' calls '\(selector)' on its policy, which is not registered")
                }
            }
        }
        return nil
    }

    /// The selectors of `FUNCTION($entityPolicy, "selector", …)` in an expression's text.
    static func policySelectors(in expression: String) -> [String] {
        var found = [String]()
        var rest = Substring(expression)
        while let range = rest.range(of: "$entityPolicy") {
            rest = rest[range.upperBound...]
            guard let open = rest.firstIndex(of: "\"") else { break }
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "\"") else { break }
            found.append(String(after[..<close]))
            rest = after[close...]
        }
        return found
    }
}
