import ModelSchema

/// Why a lightweight migration cannot be inferred, and what might be a rename: the `M2xx`
/// diagnostics, positioned in the destination version's `contents` (or the source's, for what
/// it lost).
public enum MigrationDiagnostics {
    static func typeChange(_ entity: String, _ attribute: String, from: AttributeType, to: AttributeType, at location: SourceLocation) -> Diagnostic {
        fixIt(
            .error(
                "M201",
                "attribute '\(attribute)' of '\(entity)' changes type from \(from.xmlName ?? "Undefined") to \(to.xmlName ?? "Undefined"), which lightweight migration cannot convert",
                at: location),
            "keep the type and add a new attribute, or ship a mapping model for this step")
    }

    static func requiredWithoutDefault(_ entity: String, _ attribute: String, added: Bool, at location: SourceLocation) -> Diagnostic {
        fixIt(
            .error(
                "M202",
                added
                    ? "new attribute '\(attribute)' of '\(entity)' is required and has no default value for existing rows"
                    : "attribute '\(attribute)' of '\(entity)' becomes required without a default value for rows where it is empty",
                at: location),
            "give '\(attribute)' a default value, or keep it optional")
    }

    static func mergedHierarchies(_ entity: String, _ source: String, _ other: String, at location: SourceLocation) -> Diagnostic {
        fixIt(
            .error(
                "M203",
                "entity '\(entity)' would merge the hierarchies of '\(source)' and '\(other)', which share no parent in the source version",
                at: location),
            "keep the entities in separate hierarchies, or ship a mapping model for this step")
    }

    static func requiredRelationshipAdded(_ entity: String, _ relationship: String, at location: SourceLocation) -> Diagnostic {
        fixIt(
            .error(
                "M204",
                "new relationship '\(relationship)' of '\(entity)' is required, but existing rows have nothing to point to",
                at: location),
            "make '\(relationship)' optional, or ship a mapping model that sets it")
    }

    static func possibleRename(kind: String, owner: String?, removed: String, added: String, at location: SourceLocation) -> Diagnostic {
        let of = owner.map { " of '\($0)'" } ?? ""
        return Diagnostic(
            severity: .warning, code: "M210",
            message: "\(kind) '\(removed)'\(of) is removed and '\(added)' is added; if it was renamed, its data is dropped",
            location: location,
            notes: [Diagnostic.Note("fix-it: set the renaming identifier of '\(added)' to '\(removed)' (elementID=\"\(removed)\")", at: location)])
    }

    static func dropsIfRows(_ what: String, at location: SourceLocation) -> Diagnostic {
        .warning("M220", "the migration drops \(what), in every store that has such rows", at: location)
    }

    static func shippedVersionEdited(_ version: String, _ change: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            severity: .error, code: "M221",
            message: "shipped version '\(version)' was edited in place: \(change); stores it made no longer match any version",
            location: location,
            notes: [Diagnostic.Note("fix-it: undo the edit in '\(version)' and make the change in a new model version", at: location)])
    }

    static func shippedVersionRemoved(_ version: String) -> Diagnostic {
        .error("M222", "shipped version '\(version)' is no longer in the model; stores it made cannot be opened")
    }

    /// `diagnostic` with a fix-it note.
    private static func fixIt(_ diagnostic: Diagnostic, _ text: String) -> Diagnostic {
        var result = diagnostic
        result.notes.append(Diagnostic.Note("fix-it: \(text)", at: diagnostic.location))
        return result
    }

    public static let catalog: [DiagnosticDescriptor] = [
        .init("M201", .error, "an attribute changes type in a way lightweight migration cannot convert"),
        .init("M202", .error, "an attribute becomes (or is added as) required without a default value"),
        .init("M203", .error, "a destination entity merges two source hierarchies"),
        .init("M204", .error, "a required relationship is added"),
        .init("M210", .warning, "a removed and an added property or entity look like a rename"),
        .init("M220", .warning, "a shipped version's migration drops stored values where rows exist (modelc check)"),
        .init("M221", .error, "a shipped version was edited in place (modelc check --lock)"),
        .init("M222", .error, "a shipped version was removed from the model (modelc check --lock)"),
    ]
}
