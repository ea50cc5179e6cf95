import ModelSchema

/// Relationship settings: counts in order and the risky "No Action" delete rule.
struct RelationshipRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        for entity in context.entities {
            for relationship in entity.relationships {
                if let min = relationship.minCount, let max = relationship.maxCount, max > 0, min > max {
                    diagnostics.emit(.countsOutOfOrder(relationship.name, min: min, max: max, at: relationship.location))
                }
                if relationship.deleteRule == .noAction {
                    diagnostics.emit(.noActionDeleteRule(relationship.name, at: relationship.location))
                }
            }
        }
    }
}
