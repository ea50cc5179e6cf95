import ModelSchema

/// The entity graph: unique entity names, known parents, no inheritance cycles, known
/// destinations, and known entities wherever a configuration or fetch request names one.
struct EntityGraphRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        var seen = [String: SourceLocation]()
        // Each cycle is reported once, at the entity whose name sorts first.
        var cycles = [Int: [String]]()
        for cycle in context.inheritance.cycles {
            cycles[cycle[0]] = cycle.map { context.entities[$0].name } + [context.entities[cycle[0]].name]
        }
        for (position, entity) in context.entities.enumerated() {
            if let first = seen[entity.name] {
                diagnostics.emit(
                    Diagnostic.duplicateEntity(entity.name, at: entity.location)
                        .noting("'\(entity.name)' is first declared here", at: first))
            } else {
                seen[entity.name] = entity.location
            }
            if let parentName = entity.parentEntityName, !context.hasEntity(named: parentName) {
                diagnostics.emit(.unknownParent(entity.name, parentName, at: entity.location))
            }
            if let cycle = cycles[position] {
                diagnostics.emit(.inheritanceCycle(cycle, at: entity.location))
            }
            for relationship in entity.relationships
            where !context.hasEntity(named: relationship.destinationEntityName) {
                diagnostics.emit(
                    .unknownDestination(relationship.name, relationship.destinationEntityName, at: relationship.location))
            }
            for fetched in entity.fetchedProperties
            where !context.hasEntity(named: fetched.fetchRequest.entityName) {
                diagnostics.emit(
                    .unknownEntityReference(
                        fetched.fetchRequest.entityName, "fetched property '\(fetched.name)'", at: fetched.location))
            }
        }
        for request in context.version.fetchRequests where !context.hasEntity(named: request.entityName) {
            diagnostics.emit(.unknownEntityReference(request.entityName, "fetch request '\(request.name)'", at: request.location))
        }
        for configuration in context.version.configurations {
            for member in configuration.memberEntityNames where !context.hasEntity(named: member) {
                diagnostics.emit(
                    .unknownEntityReference(member, "configuration '\(configuration.name)'", at: configuration.location))
            }
        }
    }

}
