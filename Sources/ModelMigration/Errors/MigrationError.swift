import ModelSchema

/// Why a migration step cannot be planned or run.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    case unsupported(String)
    case schemaMismatch(String)

    public var description: String {
        switch self {
        case .unsupported(let what): "modelc's in-place migrator cannot do this yet: \(what)"
        case .schemaMismatch(let what): "the store's tables are not those of its version: \(what)"
        }
    }

    /// The same error, saying which step it happened in.
    func during(_ source: String, _ destination: String) -> MigrationError {
        switch self {
        case .unsupported(let what): .unsupported("\(what) (\(source) → \(destination))")
        case .schemaMismatch(let what): .schemaMismatch("\(what) (\(source) → \(destination))")
        }
    }
}
