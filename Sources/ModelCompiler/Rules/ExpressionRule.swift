import ModelExpression
import ModelSchema

/// Predicates and expressions written as text (fetch requests, fetched properties, partial
/// indexes, derivations) must parse, since momc archives them as NSPredicate/NSExpression.
struct ExpressionRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        for request in context.version.fetchRequests {
            checkPredicate(request.predicateString, "fetch request '\(request.name)'", request.location, &diagnostics)
        }
        for entity in context.entities {
            for fetched in entity.fetchedProperties {
                checkPredicate(fetched.fetchRequest.predicateString, "fetched property '\(fetched.name)'", fetched.location, &diagnostics)
            }
            for index in entity.fetchIndexes {
                checkPredicate(index.partialIndexPredicate, "fetch index '\(index.name)'", index.location, &diagnostics)
            }
            for attribute in entity.attributes where attribute.isDerived {
                guard let text = attribute.derivationExpression else { continue }
                do {
                    _ = try PredicateParser.expression(text)
                } catch {
                    diagnostics.emit(.invalidExpression(text, "derived attribute '\(attribute.name)'", error.message, at: attribute.location))
                }
            }
        }
    }

    private func checkPredicate(
        _ text: String?, _ owner: String, _ location: SourceLocation, _ diagnostics: inout DiagnosticList
    ) {
        guard let text else { return }
        do {
            _ = try PredicateParser.predicate(text)
        } catch {
            diagnostics.emit(.invalidExpression(text, owner, error.message, at: location))
        }
    }
}
