import ModelSchema

/// Why a lightweight migration cannot be inferred, and what might be a rename: the `M2xx`
/// diagnostics, positioned in the destination version's `contents` (or the source's, for what
/// it lost).
public enum MigrationDiagnostics {
    static func typeChange(_ entity: String, _ attribute: String, from: AttributeType, to: AttributeType, at location: SourceLocation) -> Diagnostic {
        .error(
            "M201",
            "attribute '\(attribute)' of '\(entity)' changes type from \(from.xmlName ?? "Undefined") to \(to.xmlName ?? "Undefined"), which lightweight migration cannot convert",
            at: location)
    }

    static func requiredWithoutDefault(_ entity: String, _ attribute: String, added: Bool, at location: SourceLocation) -> Diagnostic {
        .error(
            "M202",
            added
                ? "new attribute '\(attribute)' of '\(entity)' is required and has no default value for existing rows"
                : "attribute '\(attribute)' of '\(entity)' becomes required without a default value for rows where it is empty",
            at: location)
    }

    static func mergedHierarchies(_ entity: String, _ source: String, _ other: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "M203",
            "entity '\(entity)' would merge the hierarchies of '\(source)' and '\(other)', which share no parent in the source version",
            at: location)
    }

    static func requiredRelationshipAdded(_ entity: String, _ relationship: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "M204",
            "new relationship '\(relationship)' of '\(entity)' is required, but existing rows have nothing to point to",
            at: location)
    }

    static func destinationChanged(_ entity: String, _ relationship: String, from: String, to: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "M205",
            "relationship '\(relationship)' of '\(entity)' now points to '\(to)', which is not what '\(from)' became",
            at: location)
    }

    static func possibleRename(kind: String, owner: String?, removed: String, added: String, at location: SourceLocation) -> Diagnostic {
        let of = owner.map { " of '\($0)'" } ?? ""
        return Diagnostic(
            severity: .warning, code: "M210",
            message: "\(kind) '\(removed)'\(of) is removed and '\(added)' is added; if it was renamed, its data is dropped",
            location: location,
            notes: [Diagnostic.Note("fix-it: set the renaming identifier of '\(added)' to '\(removed)' (elementID=\"\(removed)\")", at: location)])
    }

    public static let catalog: [DiagnosticDescriptor] = [
        .init("M201", .error, "an attribute changes type in a way lightweight migration cannot convert"),
        .init("M202", .error, "an attribute becomes (or is added as) required without a default value"),
        .init("M203", .error, "a destination entity merges two source hierarchies"),
        .init("M204", .error, "a required relationship is added"),
        .init("M205", .error, "a relationship's destination changes to an unrelated entity"),
        .init("M210", .warning, "a removed and an added property or entity look like a rename"),
    ]
}
