import ModelCompiler
import ModelSchema
import ModelXML
import Testing

/// A diagnostic a test expects at a marker of its ``MarkedText``.
public struct ExpectedDiagnostic: Sendable {
    public var code: String
    public var severity: Diagnostic.Severity
    public var marker: String
    /// Words the message must contain (the names it is about), not its whole wording, which
    /// may change.
    public var fragments: [String]

    public init(_ code: String, _ severity: Diagnostic.Severity, at marker: String, mentioning fragments: String...) {
        self.code = code
        self.severity = severity
        self.marker = marker
        self.fragments = fragments
    }
}

/// A diagnostic reduced to what a test compares: code, severity and position.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    public var code: String
    public var severity: Diagnostic.Severity
    public var location: ModelSchema.SourceLocation

    public init(_ code: String, _ severity: Diagnostic.Severity, _ location: ModelSchema.SourceLocation) {
        self.code = code
        self.severity = severity
        self.location = location
    }

    public init(_ diagnostic: Diagnostic) {
        self.init(diagnostic.code, diagnostic.severity, diagnostic.location)
    }

    public var description: String { "\(code) \(severity.rawValue) at \(location)" }
}

/// Reads the marked `contents` XML as one version and validates it, expecting the reading to be
/// clean. Returns `nil`, recording an issue, when no model could be read.
public func validate(
    _ marked: MarkedText, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [Diagnostic]? {
    let path = "Test.xcdatamodel/contents"
    let (version, reading) = ModelReader().readVersion(contents: marked.bytes, name: "Test", path: path)
    #expect(reading.map(\.code) == [], "reading the model", sourceLocation: sourceLocation)
    guard let version else {
        Issue.record("no model was read: \(reading.map(\.message))", sourceLocation: sourceLocation)
        return nil
    }
    return ModelValidator().validate(version)
}

/// Validates the marked model and checks that it reports exactly the expected diagnostics, in
/// order: each one's code, severity, line and column (those of its marker), and the names its
/// message mentions. Returns the diagnostics for further checks.
@discardableResult
public func assertValidation(
    of markedXML: String, reports expected: [ExpectedDiagnostic],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [Diagnostic] {
    let marked = MarkedText(markedXML)
    guard let diagnostics = validate(marked, sourceLocation: sourceLocation) else { return [] }
    var wanted = [Finding]()
    for item in expected {
        guard let location = marked.location(of: item.marker) else {
            Issue.record("the model has no marker \(item.marker)", sourceLocation: sourceLocation)
            return diagnostics
        }
        wanted.append(Finding(item.code, item.severity, location))
    }
    let found = diagnostics.map(Finding.init)
    #expect(found == wanted, "\(diagnostics.map(\.message))", sourceLocation: sourceLocation)
    for (diagnostic, item) in zip(diagnostics, expected) where diagnostic.code == item.code {
        for fragment in item.fragments {
            #expect(
                diagnostic.message.contains(fragment), "\(item.code) message: \(diagnostic.message)",
                sourceLocation: sourceLocation)
        }
        #expect(diagnostic.path == "Test.xcdatamodel/contents", sourceLocation: sourceLocation)
    }
    return diagnostics
}
