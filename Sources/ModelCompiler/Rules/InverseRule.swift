import ModelSchema

/// Inverses: every relationship should have one (warning), and an inverse must exist on the
/// destination, point back, and share the relationship's transience. An inverse that names a
/// third relationship as its own inverse is only a warning: Xcode compiles such models keeping
/// each side's inverse as written, and Core Data opens their stores. The transience rule is
/// lifted by momc's `--suppress-inverse-transient-error`.
struct InverseRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        for entity in context.entities {
            for relationship in entity.relationships {
                check(relationship, of: entity, context, &diagnostics)
            }
        }
    }

    private func check(
        _ relationship: Relationship, of entity: Entity, _ context: ValidationContext,
        _ diagnostics: inout DiagnosticList
    ) {
        guard let inverseName = relationship.inverseName else {
            diagnostics.emit(.missingInverse(relationship.name, entity.name, at: relationship.location))
            return
        }
        guard let destination = context.entity(named: relationship.destinationEntityName) else { return }
        if let inverseEntity = relationship.inverseEntityName, inverseEntity != destination.name {
            diagnostics.emit(.inverseNotFound(relationship.name, inverseName, destination.name, at: relationship.location))
            return
        }
        guard case .relationship(let inverse)? = context.visibleProperty(named: inverseName, of: destination) else {
            diagnostics.emit(.inverseNotFound(relationship.name, inverseName, destination.name, at: relationship.location))
            return
        }
        let pointsBack = inverse.inverseName == relationship.name
            && context.isInHierarchyLine(inverse.destinationEntityName, of: entity)
        if !pointsBack {
            let other = inverse.inverseName.map { "'\($0)' on '\(inverse.destinationEntityName)'" } ?? "no inverse"
            let diagnostic =
                inverse.inverseName == nil
                ? Diagnostic.inverseNotMutual(relationship.name, inverseName, other, at: relationship.location)
                : Diagnostic.inverseNamesThirdRelationship(relationship.name, inverseName, other, at: relationship.location)
            diagnostics.emit(diagnostic.noting("'\(inverseName)' is declared here", at: inverse.location))
        }
        if inverse.isTransient != relationship.isTransient && !context.options.suppressesInverseTransientError {
            diagnostics.emit(
                Diagnostic.transientInverseMismatch(relationship.name, inverseName, at: relationship.location)
                    .noting("'\(inverseName)' is declared here", at: inverse.location))
        }
    }
}
