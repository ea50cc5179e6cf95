import ModelSchema

/// Which versions of a model bundle a mapping model's source and destination are, found by
/// entity hashes as Core Data finds them.
///
/// Core Data (`+[NSMappingModel mappingModelFromBundles:forSourceModel:destinationModel:]`)
/// takes a mapping model when the entity hashes its entity mappings record for the source are
/// a non-empty subset of the source model's entity hashes, and likewise for the destination: a
/// mapping made before an unrelated entity was added still matches. A snapshot that equals a
/// version entity for entity is an exact match.
public struct MappingVersionMatch: Sendable, Hashable, Codable {
    /// The side of the mapping: `source` or `destination`.
    public var side: String
    /// Versions whose entity hashes include every hash the mapping records for this side.
    public var subsetMatches: [String]
    /// Versions that equal the snapshot entity for entity (none for a `.cdm`, which has no snapshot).
    public var exactMatches: [String]
    /// When nothing matches: the version closest to the snapshot (the one `sourcemodelpath` or
    /// `destinationmodelpath` names, else the one sharing most hashes) and how it differs.
    public var closest: String?
    public var differingEntities: [String]

    /// Matches one side of `model` against every version of `bundle`.
    public static func match(_ model: MappingModel, side: Side, in bundle: ModelBundle) -> MappingVersionMatch {
        let recorded = side == .source ? model.sourceEntityHashes : model.destinationEntityHashes
        let snapshot = side == .source ? model.sourceSnapshot : model.destinationSnapshot
        let snapshotHashes = snapshot.map { VersionHasher($0).entityHashes() }
        var result = MappingVersionMatch(side: side.rawValue, subsetMatches: [], exactMatches: [], closest: nil, differingEntities: [])
        var nearest = [(name: String, shared: Int, differing: [String])]()
        for version in bundle.versions {
            let hashes = VersionHasher(version).entityHashes()
            if MappingModel.recorded(recorded, areIn: hashes) { result.subsetMatches.append(version.name) }
            guard let snapshotHashes else { continue }
            if snapshotHashes == hashes { result.exactMatches.append(version.name) }
            let names = Set(snapshotHashes.keys).union(hashes.keys)
            nearest.append((
                version.name, snapshotHashes.filter { hashes[$0.key] == $0.value }.count,
                names.filter { snapshotHashes[$0] != hashes[$0] }.sorted()))
        }
        if result.exactMatches.isEmpty,
            let closest = nearest.first(where: { $0.name == snapshot?.name }) ?? nearest.max(by: { $0.shared < $1.shared })
        {
            result.closest = closest.name
            result.differingEntities = closest.differing
        }
        return result
    }

    public enum Side: String, Sendable {
        case source, destination
    }

    /// The version Core Data would use: the exact match, else the first subset match.
    public var version: String? {
        exactMatches.first ?? subsetMatches.first
    }

    /// A warning when the snapshot equals no version; nil when it does.
    public func diagnostic(bundle: String) -> Diagnostic? {
        guard exactMatches.isEmpty else { return nil }
        if closest == nil && !subsetMatches.isEmpty { return nil }
        var detail = closest.map { "closest is '\($0)', whose entities \(differingEntities.map { "'\($0)'" }.joined(separator: ", ")) differ" }
            ?? "no version shares its entity hashes"
        if let picked = subsetMatches.first {
            detail += "; Core Data's subset rule still picks '\(picked)'"
        } else {
            detail += "; Core Data's subset rule picks no version either"
        }
        return .snapshotMatchesNoVersion(side, bundle, detail)
    }
}
