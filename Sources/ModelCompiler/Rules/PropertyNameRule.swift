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
        let totals = propertyTotals(context)
        for entity in context.entities {
            if !Self.isIdentifier(entity.name) {
                diagnostics.emit(.invalidIdentifier(entity.name, "entity", at: entity.location))
            }
            let parent = entity.parentEntityName == nil ? nil : context.position(of: entity).flatMap { context.inheritance.parents[$0] }
            var names = [String]()
            var locations = [SourceLocation]()
            names.reserveCapacity(entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
            locations.reserveCapacity(names.capacity)
            // By index: `for attribute in entity.attributes` would copy every attribute.
            for index in entity.attributes.indices {
                names.append(entity.attributes[index].name)
                locations.append(entity.attributes[index].location)
            }
            for index in entity.relationships.indices {
                names.append(entity.relationships[index].name)
                locations.append(entity.relationships[index].location)
            }
            for index in entity.fetchedProperties.indices {
                names.append(entity.fetchedProperties[index].name)
                locations.append(entity.fetchedProperties[index].location)
            }
            let keys = names.map(Self.identifierKey)
            let firstDeclarations = Self.firstDeclarations(of: names, keys: keys)
            for (index, name) in names.enumerated() {
                let location = locations[index]
                if let first = firstDeclarations[index] {
                    diagnostics.emit(
                        Diagnostic.duplicateProperty(name, entity.name, at: location)
                            .noting("'\(name)' is first declared here", at: locations[first]))
                    continue
                }
                if let parent, let declaring = context.nearestDeclaring(name, from: parent),
                    let inherited = ValidationContext.ownProperty(named: name, of: context.entities[declaring])
                {
                    let ancestor = context.entities[declaring].name
                    diagnostics.emit(
                        Diagnostic.inheritedClash(name, entity.name, ancestor, at: location)
                            .noting("'\(name)' is declared in '\(ancestor)' here", at: inherited.location))
                }
                if let key = keys[index] {
                    if Self.isReservedIdentifier(name, key: key) {
                        diagnostics.emit(.reservedName(name, "property", at: location))
                    }
                } else if Self.reservedNames.contains(name) {
                    diagnostics.emit(.reservedName(name, "property", at: location))
                } else {
                    diagnostics.emit(.invalidIdentifier(name, "property", at: location))
                }
            }
            let count = names.count + (parent.map { totals[$0] } ?? 0)
            if count > 100 {
                diagnostics.emit(.tooManyProperties(entity.name, count, at: entity.location))
            }
        }
    }

    /// For each name, the position of the first earlier name equal to it, if any; `keys` are the
    /// names' ``identifierKey(_:)``s. Entities have few properties, so comparing each name with
    /// the earlier ones beats hashing every name, and identifiers with different keys differ
    /// without comparing them; past a few dozen names a dictionary takes over.
    static func firstDeclarations(of names: [String], keys: [Int?]) -> [Int?] {
        guard names.count > 32 else {
            return names.indices.map { index in
                names.indices[..<index].first { earlier in
                    (keys[earlier] == nil || keys[index] == nil || keys[earlier] == keys[index]) && names[earlier] == names[index]
                }
            }
        }
        var firstPositions = [String: Int](minimumCapacity: names.count)
        return names.indices.map { index in
            if let first = firstPositions[names[index]] { return first }
            firstPositions[names[index]] = index
            return nil
        }
    }

    /// For each entity, how many properties it has, its own and inherited: one pass over the
    /// entities, parents before subentities.
    private func propertyTotals(_ context: ValidationContext) -> [Int] {
        var totals = [Int](repeating: 0, count: context.entities.count)
        for position in context.inheritance.preorder {
            let entity = context.entities[position]
            let own = entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count
            totals[position] = own + (context.inheritance.parents[position].map { totals[$0] } ?? 0)
        }
        return totals
    }

    /// ASCII letters, digits and underscores, starting with a letter.
    static func isIdentifier(_ name: String) -> Bool {
        identifierKey(name) != nil
    }

    /// For an identifier, its length, first and last byte in one number, which tells most
    /// identifiers apart; `nil` for a name that is no identifier. Identifiers are ASCII, so two
    /// are equal only if their bytes are, and then their keys are too.
    static func identifierKey(_ name: String) -> Int? {
        name.utf8.withContiguousStorageIfAvailable(identifierKey(bytes:))
            ?? Array(name.utf8).withUnsafeBufferPointer(identifierKey(bytes:))
    }

    private static func identifierKey(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        for byte in bytes where !(isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F) {
            return nil
        }
        return bytes.count << 16 | Int(first) << 8 | Int(bytes.last!)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// For each lower-case first letter, the lengths of the reserved names starting with it, as bits.
    private static let reservedLengths: [UInt32] = {
        var lengths = [UInt32](repeating: 0, count: 26)
        for name in reservedNames {
            lengths[Int(name.utf8.first! - 0x61)] |= 1 << name.utf8.count
        }
        return lengths
    }()

    /// Whether the identifier with this ``identifierKey(_:)`` is reserved. Identifiers are ASCII,
    /// so only a reserved name with the same first letter and length can equal one, which rules
    /// most out before any hashing.
    private static func isReservedIdentifier(_ name: String, key: Int) -> Bool {
        let length = key >> 16
        let first = UInt8(truncatingIfNeeded: key >> 8)
        guard first >= 0x61, first <= 0x7A, length < 32, reservedLengths[Int(first - 0x61)] & (1 << length) != 0 else {
            return false
        }
        return reservedNames.contains(name)
    }
}
