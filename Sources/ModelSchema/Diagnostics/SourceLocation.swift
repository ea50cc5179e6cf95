/// A 1-based line and column in a model file; line 0 means "no position known".
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// No position: used for problems with a whole file or bundle.
    public static let unknown = SourceLocation(line: 0, column: 0)

    public var isKnown: Bool { line > 0 }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}
