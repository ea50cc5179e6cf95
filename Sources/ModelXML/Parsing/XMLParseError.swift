import ModelSchema

/// Why an XML file could not be parsed: it is malformed, or it tries something modelc refuses
/// (entity declarations, which are the vehicle for external-entity and expansion attacks).
struct XMLParseError: Error, Sendable {
    enum Kind: Sendable {
        case malformed
        case entityDeclaration
        case tooLarge
        /// Elements nested deeper than ``XMLDocumentParser/maximumDepth``.
        case tooDeep
    }

    var kind: Kind
    var message: String
    var location: SourceLocation
}
