import ModelSchema

/// Checks a model the way Xcode's model editor and momc do, and reports every problem at once.
///
/// Each rule looks at one concern (the entity graph, names, inverses, counts, indexes and
/// constraints, values) and all rules always run, so a single run lists everything wrong.
///
/// ```swift
/// let diagnostics = ModelValidator().validate(bundle)
/// let failed = diagnostics.contains { $0.severity == .error }
/// ```
public struct ModelValidator: Sendable {
    /// The rules, in the order their findings are reported for one position.
    static let rules: [any ValidationRule] = [
        EntityGraphRule(), PropertyNameRule(), InverseRule(), RelationshipRule(),
        ConstraintAndIndexRule(), ValueRule(), ExpressionRule(), TableNameRule(),
    ]

    /// momc's switches that relax a rule.
    public struct Options: Sendable {
        /// momc's `--suppress-inverse-transient-error` (Xcode's build setting
        /// `MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR`): a relationship and its inverse may differ in
        /// transience, and S110 is not reported.
        public var suppressesInverseTransientError: Bool

        public init(suppressesInverseTransientError: Bool = false) {
            self.suppressesInverseTransientError = suppressesInverseTransientError
        }
    }

    public let options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The diagnostics of every version of the bundle, sorted by file and position.
    public func validate(_ bundle: ModelBundle) -> [Diagnostic] {
        var all = DiagnosticList()
        // Versions are independent: each is validated on its own core.
        for found in bundle.versions.concurrentMap({ validate($0) }) {
            all.append(contentsOf: found)
        }
        return all.sorted
    }

    /// The diagnostics of one version, sorted by position.
    public func validate(_ version: ModelVersion) -> [Diagnostic] {
        let context = ValidationContext(version, options: options)
        var found = DiagnosticList()
        for rule in Self.rules {
            rule.check(context, into: &found)
        }
        return found.diagnostics.map { $0.inFile(version.path) }.sortedByPosition()
    }
}

/// One concern of validation.
protocol ValidationRule: Sendable {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList)
}

extension Array where Element == Diagnostic {
    /// Sorted by position, keeping the emission order for equal positions.
    func sortedByPosition() -> [Diagnostic] {
        enumerated().sorted { a, b in
            a.element.location != b.element.location ? a.element.location < b.element.location : a.offset < b.offset
        }.map(\.element)
    }
}
