import Foundation
import ModelSchema

/// Finds the mapping model Core Data would use for a migration step among the places a user
/// names: `.xcmappingmodel` folders, `.cdm` files, and folders searched for both.
public enum MappingModelFinder {
    public struct Result: Sendable {
        /// The first mapping model, in the order the places were given (files of a folder sorted
        /// by path), whose hashes match the step; nil when none does.
        public var model: MappingModel?
        /// Every mapping model looked at.
        public var candidates: [String]
        public var diagnostics: [Diagnostic]
    }

    /// The mapping model for the step from `source` to `destination`.
    public static func find(in places: [String], from source: ModelVersion, to destination: ModelVersion) -> Result {
        let sourceHashes = VersionHasher(source).entityHashes()
        let destinationHashes = VersionHasher(destination).entityHashes()
        var result = Result(model: nil, candidates: [], diagnostics: [])
        for path in places.flatMap(mappingModels) {
            result.candidates.append(path)
            let read = MappingCompilation.read(at: path)
            result.diagnostics += read.diagnostics.filter { $0.severity == .error }
            if result.model == nil, let model = read.model, model.matches(source: sourceHashes, destination: destinationHashes) {
                result.model = model
            }
        }
        return result
    }

    /// The mapping models at `place`: itself, or those found under a folder, sorted by path.
    public static func mappingModels(at place: String) -> [String] {
        if MappingCompilation.isMappingModel(place) { return [place] }
        guard let walker = FileManager.default.enumerator(atPath: place) else { return [] }
        var found = [String]()
        while let item = walker.nextObject() as? String {
            if item.hasSuffix(".xcmappingmodel") {
                found.append("\(place)/\(item)")
                walker.skipDescendants()
            } else if MappingCompilation.isCompiled(item) {
                found.append("\(place)/\(item)")
            }
        }
        return found.sorted()
    }
}
