/// How Core Data picks a mapping model for a migration step.
extension MappingModel {
    /// Whether Core Data would use this mapping model from a model with entity hashes `source`
    /// to one with `destination`: the hashes its entity mappings record for each side are a
    /// non-empty subset of that model's (`+[NSMappingModel mappingModelFromBundles:forSourceModel:destinationModel:]`),
    /// so a mapping made before an unrelated entity was added still matches.
    public func matches(source: [String: VersionHash], destination: [String: VersionHash]) -> Bool {
        Self.recorded(sourceEntityHashes, areIn: source) && Self.recorded(destinationEntityHashes, areIn: destination)
    }

    /// Whether `recorded` is non-empty and each of its hashes is one of `hashes`.
    public static func recorded(_ recorded: [String: VersionHash], areIn hashes: [String: VersionHash]) -> Bool {
        guard !recorded.isEmpty else { return false }
        let values = Set(hashes.values)
        return recorded.values.allSatisfy(values.contains)
    }
}
