import GRDB

/// A migration that failed while running; the store is left as it was.
public struct MigrationFailure: Error, Sendable, CustomStringConvertible {
    /// Core Data's code: 134111 for a violated constraint, 134110 otherwise (134130, 134506 for
    /// a missing or backward destination).
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    init(_ error: DatabaseError, step: MigrationStep?) {
        let during = step.map { " during \($0.source) → \($0.destination)" } ?? ""
        if error.resultCode == .SQLITE_CONSTRAINT {
            self.init(code: 134111, message: "the data violates a constraint of the destination\(during): \(error.message ?? "")")
        } else {
            self.init(code: 134110, message: "SQLite error \(error.resultCode.rawValue)\(during): \(error.message ?? "")")
        }
    }

    public var description: String { "\(message) [\(code)]" }
}
