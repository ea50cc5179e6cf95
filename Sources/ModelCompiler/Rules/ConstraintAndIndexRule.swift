import ModelSchema

/// Uniqueness constraints, fetch indexes and compound indexes must name properties the entity
/// has, and never a to-many relationship (which has no column to constrain or index).
struct ConstraintAndIndexRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        for entity in context.entities {
            for (index, constraint) in entity.uniquenessConstraints.enumerated() {
                let location = index < entity.uniquenessConstraintLocations.count
                    ? entity.uniquenessConstraintLocations[index] : entity.location
                for name in constraint {
                    switch lookUp(name, in: entity, context) {
                    case .unknown: diagnostics.emit(.unknownConstraintProperty(name, entity.name, at: location))
                    case .toMany: diagnostics.emit(.toManyConstraintProperty(name, entity.name, at: location))
                    case .usable: break
                    }
                }
            }
            for fetchIndex in entity.fetchIndexes {
                for element in fetchIndex.elements {
                    guard let name = element.propertyName else { continue }
                    check(name, index: fetchIndex.name, in: entity, at: element.location, context, &diagnostics)
                }
            }
            for compound in entity.compoundIndexes {
                let label = compound.joined(separator: ",")
                for name in compound {
                    check(name, index: label, in: entity, at: entity.location, context, &diagnostics)
                }
            }
        }
    }

    private func check(
        _ name: String, index: String, in entity: Entity, at location: SourceLocation,
        _ context: ValidationContext, _ diagnostics: inout DiagnosticList
    ) {
        switch lookUp(name, in: entity, context) {
        case .unknown: diagnostics.emit(.unknownIndexProperty(name, index, at: location))
        case .toMany: diagnostics.emit(.toManyIndexProperty(name, index, at: location))
        case .usable: break
        }
    }

    private enum Usability { case usable, unknown, toMany }

    private func lookUp(_ name: String, in entity: Entity, _ context: ValidationContext) -> Usability {
        switch context.visibleProperty(named: name, of: entity) {
        case nil, .fetched?: .unknown
        case .relationship(let relationship)? where relationship.isToMany: .toMany
        default: .usable
        }
    }
}
