import ModelSchema

/// One stage of a staged migration, in the spirit of Apple's `NSMigrationStage`: the version the
/// store goes to next, how, and the app's code before and after.
public struct MigrationStage {
    /// How a stage migrates.
    public enum Kind {
        /// Inferred and run in place, as Core Data's lightweight migration (``Migrator``).
        case lightweight
        /// Through this mapping model, run by ``MigrationManager`` with the plan's policies.
        case custom(MappingModel)
        /// Through the first of these mapping models whose entity hashes match the stage's
        /// source and destination, as Core Data picks one; lightweight when none does.
        case matching([MappingModel])
    }

    /// The version the stage leads to.
    public var destination: String
    public var kind: Kind
    /// Runs before the stage, on the store as the stage finds it.
    public var willMigrate: ((StageStore) throws -> Void)?
    /// Runs after the stage, on the store as the stage left it.
    public var didMigrate: ((StageStore) throws -> Void)?

    public init(
        to destination: String, _ kind: Kind = .lightweight, willMigrate: ((StageStore) throws -> Void)? = nil,
        didMigrate: ((StageStore) throws -> Void)? = nil
    ) {
        self.destination = destination
        self.kind = kind
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
    }

    /// The mapping model the stage runs from `source` (entity hashes `sourceHashes`) to its
    /// destination (`destinationHashes`); nil for an inferred stage.
    func mappingModel(sourceHashes: [String: VersionHash], destinationHashes: [String: VersionHash]) -> MappingModel? {
        switch kind {
        case .lightweight: nil
        case .custom(let model): model
        case .matching(let models): models.first { $0.matches(source: sourceHashes, destination: destinationHashes) }
        }
    }
}

/// The store a stage's hooks see: the file the staged migration works on (a copy beside the
/// store until the last stage is done; the store's path names the original until then), and the
/// stage's two versions.
public struct StageStore: Sendable {
    public var path: String
    public var source: String
    public var destination: String
}

/// An ordered list of stages and the policies their mapping models name: what a staged
/// migration runs when a store is behind. A store made by the version one stage leads to starts
/// at the next stage; any other starts at the first.
public struct StagedMigrationPlan {
    public var stages: [MigrationStage]
    /// The entity migration policies and policy functions, for every stage.
    public var policies: PolicyRegistry

    public init(stages: [MigrationStage], policies: PolicyRegistry = PolicyRegistry()) {
        self.stages = stages
        self.policies = policies
    }

    /// Stages through `through`, in order, then to `destination` (a stage equal to its
    /// neighbour is skipped, as in ``Migrator/Options/through``), each through the first of
    /// `mappingModels` that matches it, else inferred.
    public static func chain(
        through: [String], to destination: String, mappingModels: [MappingModel], policies: PolicyRegistry = PolicyRegistry()
    ) -> StagedMigrationPlan {
        var names = [String]()
        for name in through + [destination] where names.last != name { names.append(name) }
        return StagedMigrationPlan(stages: names.map { MigrationStage(to: $0, .matching(mappingModels)) }, policies: policies)
    }

    /// The stages a store made by `version` runs.
    func stages(from version: String) -> ArraySlice<MigrationStage> {
        guard let reached = stages.lastIndex(where: { $0.destination == version }) else { return stages[...] }
        return stages[(reached + 1)...]
    }
}
