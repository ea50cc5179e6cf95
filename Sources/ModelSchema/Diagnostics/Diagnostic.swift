/// A problem found in a user's model, with a stable code and a position.
///
/// Diagnostics are data: the libraries produce and collect them, and only the command line
/// renders them (as `path:line:column: severity: message [CODE]`). Codes are API and never
/// reused: `X0xx` for reading, `S1xx` for schema rules, `M2xx` for migration inference. Message
/// wording may change.
public struct Diagnostic: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case note, warning, error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    /// The stable code, e.g. `S104`.
    public var code: String
    /// Lower-case, no final period, names in single quotes.
    public var message: String
    /// The file the problem is in, as the user named it.
    public var path: String
    public var location: SourceLocation
    /// Further context (where a clashing name is declared, a fix-it), each with its position.
    public var notes: [Note]

    public init(
        severity: Severity, code: String, message: String, path: String = "",
        location: SourceLocation = .unknown, notes: [Note] = []
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.path = path
        self.location = location
        self.notes = notes
    }

    /// A note attached to a diagnostic.
    public struct Note: Sendable, Hashable {
        public var message: String
        public var location: SourceLocation

        public init(_ message: String, at location: SourceLocation = .unknown) {
            self.message = message
            self.location = location
        }
    }

    public static func error(_ code: String, _ message: String, at location: SourceLocation = .unknown) -> Self {
        Diagnostic(severity: .error, code: code, message: message, location: location)
    }

    public static func warning(_ code: String, _ message: String, at location: SourceLocation = .unknown) -> Self {
        Diagnostic(severity: .warning, code: code, message: message, location: location)
    }

    /// A copy with the given file path.
    public func inFile(_ path: String) -> Self {
        var copy = self
        copy.path = path
        return copy
    }

    /// A copy with a note appended.
    public func noting(_ message: String, at location: SourceLocation = .unknown) -> Self {
        var copy = self
        copy.notes.append(Note(message, at: location))
        return copy
    }
}

/// An entry of a module's diagnostic catalogue: a code and what it means, for the docs.
public struct DiagnosticDescriptor: Sendable, Hashable {
    public var code: String
    public var severity: Diagnostic.Severity
    public var summary: String

    public init(_ code: String, _ severity: Diagnostic.Severity, _ summary: String) {
        self.code = code
        self.severity = severity
        self.summary = summary
    }
}
