import ModelSchema

/// The entity graph: unique entity names, known parents, no inheritance cycles, known
/// destinations, and known entities wherever a configuration or fetch request names one.
struct EntityGraphRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        var seen = [String: SourceLocation]()
        for entity in context.entities {
            if let first = seen[entity.name] {
                diagnostics.emit(
                    Diagnostic.duplicateEntity(entity.name, at: entity.location)
                        .noting("'\(entity.name)' is first declared here", at: first))
            } else {
                seen[entity.name] = entity.location
            }
            checkParent(of: entity, context, &diagnostics)
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

    private func checkParent(of entity: Entity, _ context: ValidationContext, _ diagnostics: inout DiagnosticList) {
        guard let parentName = entity.parentEntityName else { return }
        guard context.hasEntity(named: parentName) else {
            diagnostics.emit(.unknownParent(entity.name, parentName, at: entity.location))
            return
        }
        // Follow the chain; a cycle is reported once, at the entity whose name sorts first.
        var chain = [entity.name]
        var current = parentName
        while let next = context.entity(named: current) {
            if let start = chain.firstIndex(of: next.name) {
                let cycle = Array(chain[start...])
                if start == 0 && entity.name == cycle.min() {
                    diagnostics.emit(.inheritanceCycle(cycle + [entity.name], at: entity.location))
                }
                return
            }
            chain.append(next.name)
            guard let parent = next.parentEntityName else { return }
            current = parent
        }
    }
}
