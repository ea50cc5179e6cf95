import ModelSchema

/// The gate before shipping a new model version: for every version that may have made a store,
/// the direct step to the current version, as Core Data would migrate it, with a verdict. There
/// is no store, so what rows decide is taken as if rows exist: "drops data" is what the change
/// drops from existing rows, "impossible" what fails when rows lack a value.
public enum ReleaseCheck {
    /// One version's verdict and every reason for it, positioned in the model files.
    public struct Verdict: Sendable {
        public var version: String
        public var risk: MigrationRisk
        public var mapping: InferredMapping?
        /// The mapping's diagnostics, then one `M220` warning per kind of value it drops.
        public var diagnostics: [Diagnostic]
    }

    /// The verdict for each of `versions` (default: every version but the current) to the
    /// bundle's current version.
    public static func run(bundle: ModelBundle, versions names: [String]? = nil) -> [Verdict] {
        guard let current = bundle.currentVersion else { return [] }
        let currentHashes = VersionHasher(current).entityHashes()
        let names = names ?? bundle.versions.map(\.name).filter { $0 != current.name }
        return names.compactMap { name in
            guard let version = bundle.version(named: name) else { return nil }
            guard version.name != current.name else { return Verdict(version: name, risk: .safe, mapping: nil, diagnostics: []) }
            let mapping = MappingInference.infer(from: version, to: current, destinationHashes: currentHashes)
            let drops = droppedValues(mapping, source: version)
            let risk: MigrationRisk = !mapping.isPossible ? .impossible : drops.isEmpty ? .safe : .dropsData
            return Verdict(version: name, risk: risk, mapping: mapping, diagnostics: mapping.diagnostics + drops)
        }
    }

    /// What the mapping drops from existing rows, each at its place in the source version.
    private static func droppedValues(_ mapping: InferredMapping, source: ModelVersion) -> [Diagnostic] {
        let hierarchy = EntityHierarchy(source)
        var result = [Diagnostic]()
        for entity in mapping.entities {
            guard let name = entity.source, let sourceEntity = hierarchy.entity(named: name) else { continue }
            if entity.kind == .remove {
                result.append(MigrationDiagnostics.dropsIfRows("the rows of entity '\(name)' (it is removed)", at: sourceEntity.location).inFile(source.path))
                continue
            }
            for property in entity.properties where property.dropsData {
                // Inherited properties are reported once, on the entity that declares them.
                guard let old = property.source,
                    let declared = sourceEntity.attributes.first(where: { $0.name == old })?.location
                        ?? sourceEntity.relationships.first(where: { $0.name == old })?.location
                else { continue }
                let what = property.destination == nil
                    ? "the values of '\(old)' of '\(name)' (it is removed)"
                    : "all but one link of each object in '\(old)' of '\(name)' (to-many → to-one)"
                result.append(MigrationDiagnostics.dropsIfRows(what, at: declared).inFile(source.path))
            }
        }
        return result
    }
}
