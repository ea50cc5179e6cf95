import ModelSchema

/// The diagnostics of mapping models (`P3xx`): reading a `.xcmappingmodel` or `.cdm`, and the
/// checks made before compiling or using one.
extension Diagnostic {
    static func unreadableSnapshot(_ side: String, _ reason: String, at location: SourceLocation) -> Self {
        .error("P302", "the \(side) model snapshot cannot be decoded: \(reason)", at: location)
    }

    static func unreadableArchive(_ what: String, _ reason: String, at location: SourceLocation) -> Self {
        .error("P303", "\(what) cannot be decoded: \(reason)", at: location)
    }

    static func unreadableCompiledMapping(_ reason: String) -> Self {
        .error("P304", "cannot read compiled mapping model: \(reason)")
    }

    static func snapshotMatchesNoVersion(_ side: String, _ bundle: String, _ detail: String) -> Self {
        .warning("P310", "the \(side) of the mapping model matches no version of '\(bundle)': \(detail)")
    }

    static func entityMissingFromSnapshot(_ mapping: String, _ side: String, _ entity: String, at location: SourceLocation) -> Self {
        .error("P311", "entity mapping '\(mapping)' names \(side) entity '\(entity)', which the \(side) model does not have", at: location)
    }

    static func unparsableExpression(_ mapping: String, _ what: String, _ text: String, _ reason: String, at location: SourceLocation) -> Self {
        .error("P312", "entity mapping '\(mapping)': \(what) '\(text)' does not parse: \(reason)", at: location)
    }

    static func customWithoutPolicy(_ mapping: String, at location: SourceLocation) -> Self {
        .error("P313", "entity mapping '\(mapping)' is custom but names no migration policy class", at: location)
    }

    static func duplicateMappingName(_ name: String, at location: SourceLocation) -> Self {
        .error("P314", "duplicate entity mapping name '\(name)'", at: location)
    }
}

/// The catalogue of mapping-model diagnostics, for the docs and the uniqueness test.
public enum MappingDiagnostics {
    public static let catalog: [DiagnosticDescriptor] = [
        .init("P301", .error, "the path is not a mapping model"),
        .init("P302", .error, "a model snapshot of a .xcmappingmodel cannot be decoded"),
        .init("P303", .error, "an archived value expression or user info cannot be decoded"),
        .init("P304", .error, "a .cdm cannot be read"),
        .init("P310", .warning, "the mapping's source or destination matches no version of the given model"),
        .init("P311", .error, "an entity mapping names an entity its model snapshot does not have"),
        .init("P312", .error, "a value expression or filter predicate does not parse"),
        .init("P313", .error, "a custom entity mapping names no migration policy class"),
        .init("P314", .error, "two entity mappings have the same name"),
    ]
}
