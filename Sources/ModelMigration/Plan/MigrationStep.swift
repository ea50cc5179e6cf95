import ModelSchema
import ModelStore

/// One statement of a migration step, with what it is for.
public struct MigrationStatement: Sendable, Hashable, Codable {
    public var sql: String
    public var purpose: String
}

/// Stored values a step drops, counted in the store's data before the step runs.
public struct DroppedValues: Sendable, Hashable, Codable {
    /// The source entity the values belong to.
    public var entity: String
    /// The property whose values are dropped; `nil` when whole rows are (a removed entity).
    public var property: String?
    public var count: Int

    public init(entity: String, property: String?, count: Int) {
        self.entity = entity
        self.property = property
        self.count = count
    }
}

/// How risky a step is: it loses nothing, it drops stored values, or it cannot be inferred.
public enum MigrationRisk: String, Sendable, Codable, Comparable {
    case safe, dropsData, impossible

    private var rank: Int {
        switch self {
        case .safe: 0
        case .dropsData: 1
        case .impossible: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// Which mapping a step follows: the one inferred from the two versions (the only kind the
/// in-place migrator runs), or a compiled mapping model whose hashes match them.
public enum StepMapping: Sendable, Hashable, Codable {
    case inferred
    case mappingModel(path: String)
}

/// One step of a migration (the store's version, or a stage, to the next version) as planned
/// and, when run, as done.
public struct MigrationStep: Sendable {
    public var source: String
    public var destination: String
    /// Which mapping the step uses.
    public var uses: StepMapping = .inferred
    public var mapping: InferredMapping
    public var statements: [MigrationStatement] = []
    /// Rows the statements write (copied, updated or inserted), counted before they run.
    public var rowsTouched = 0
    /// Every table the step rewrites rather than changes in place.
    public var rewrittenTables: [String] = []
    /// Every table whose rows or indexes the step writes (rewritten, filled, updated or indexed
    /// in place): the tables SQLite's integrity check covers after the step.
    public var writtenTables: [String] = []
    public var dropped: [DroppedValues] = []
    /// Rows of the step's source whose entity number belongs to another table: kept, and
    /// reported as a warning.
    public var foreignEntityRows: [ForeignEntityRows] = []

    public var risk: MigrationRisk {
        if !mapping.isPossible { return .impossible }
        return dropped.contains { $0.count > 0 } ? .dropsData : .safe
    }
}
