/// Something that receives diagnostics as they are found.
public protocol DiagnosticCollector {
    mutating func emit(_ diagnostic: Diagnostic)
}

/// Collects every diagnostic, so that one run reports all the problems of a model.
public struct DiagnosticList: DiagnosticCollector, Sendable, Hashable {
    public private(set) var diagnostics: [Diagnostic] = []

    public init(_ diagnostics: [Diagnostic] = []) {
        self.diagnostics = diagnostics
    }

    public mutating func emit(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    public mutating func append(contentsOf other: [Diagnostic]) {
        diagnostics.append(contentsOf: other)
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// The diagnostics ordered by file, then position, keeping emission order for ties.
    public var sorted: [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            if a.element.path != b.element.path { return a.element.path < b.element.path }
            if a.element.location != b.element.location { return a.element.location < b.element.location }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// The error thrown when a step cannot go on because of errors in the model.
public struct DiagnosticsError: Error, Sendable {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }
}
