import ModelSchema

/// Names: unique within an entity and its ancestors, not reserved by NSManagedObject, usable as
/// the SQL identifiers Core Data derives from them (`Z` + upper-cased name), and not too many.
struct PropertyNameRule: ValidationRule {
    /// Names NSManagedObject and NSObject already use; a property with one breaks the class.
    static let reservedNames: Set<String> = [
        "class", "debugDescription", "description", "entity", "faultingState", "hasChanges",
        "hasPersistentChangedValues", "hash", "isDeleted", "isFault", "isInserted", "isUpdated",
        "managedObjectContext", "objectID", "self", "superclass", "zone",
    ]

    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        for entity in context.entities {
            if !Self.isIdentifier(entity.name) {
                diagnostics.emit(.invalidIdentifier(entity.name, "entity", at: entity.location))
            }
            let ancestors = context.ancestors(of: entity)
            let inherited = ancestors.isEmpty ? [:] : inheritedNames(of: entity, context)
            var own = [String: SourceLocation](
                minimumCapacity: entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
            func visit(_ name: String, _ location: SourceLocation) {
                if let first = own[name] {
                    diagnostics.emit(
                        Diagnostic.duplicateProperty(name, entity.name, at: location)
                            .noting("'\(name)' is first declared here", at: first))
                    return
                }
                own[name] = location
                if let ancestor = inherited[name] {
                    diagnostics.emit(
                        Diagnostic.inheritedClash(name, entity.name, ancestor.entity, at: location)
                            .noting("'\(name)' is declared in '\(ancestor.entity)' here", at: ancestor.location))
                }
                if Self.reservedNames.contains(name) {
                    diagnostics.emit(.reservedName(name, "property", at: location))
                } else if !Self.isIdentifier(name) {
                    diagnostics.emit(.invalidIdentifier(name, "property", at: location))
                }
            }
            // By index: `for attribute in entity.attributes` would copy every attribute.
            for index in entity.attributes.indices { visit(entity.attributes[index].name, entity.attributes[index].location) }
            for relationship in entity.relationships { visit(relationship.name, relationship.location) }
            for fetched in entity.fetchedProperties { visit(fetched.name, fetched.location) }
            let count = ([entity] + ancestors).reduce(0) {
                $0 + $1.attributes.count + $1.relationships.count + $1.fetchedProperties.count
            }
            if count > 100 {
                diagnostics.emit(.tooManyProperties(entity.name, count, at: entity.location))
            }
        }
    }

    private func inheritedNames(
        of entity: Entity, _ context: ValidationContext
    ) -> [String: (entity: String, location: SourceLocation)] {
        var names = [String: (entity: String, location: SourceLocation)]()
        for ancestor in context.ancestors(of: entity) {
            for property in ValidationContext.ownProperties(ancestor) where names[property.name] == nil {
                names[property.name] = (ancestor.name, property.location)
            }
        }
        return names
    }

    /// ASCII letters, digits and underscores, starting with a letter.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
