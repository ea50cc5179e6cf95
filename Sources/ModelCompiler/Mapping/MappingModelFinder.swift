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

    /// Every mapping model at `places` that can be read, in order, with the candidates looked
    /// at and the errors of those that cannot.
    public struct Found: Sendable {
        public var models: [MappingModel]
        public var candidates: [String]
        public var diagnostics: [Diagnostic]
    }

    /// The mapping model for the step from `source` to `destination`.
    public static func find(in places: [String], from source: ModelVersion, to destination: ModelVersion) -> Result {
        let sourceHashes = VersionHasher(source).entityHashes()
        let destinationHashes = VersionHasher(destination).entityHashes()
        let found = readAll(in: places)
        let model = found.models.first { $0.matches(source: sourceHashes, destination: destinationHashes) }
        return Result(model: model, candidates: found.candidates, diagnostics: found.diagnostics)
    }

    /// Reads every mapping model at `places` (for staged migrations, whose stages each pick one).
    public static func readAll(in places: [String]) -> Found {
        var found = Found(models: [], candidates: [], diagnostics: [])
        for path in places.flatMap(mappingModels) {
            found.candidates.append(path)
            let read = MappingCompilation.read(at: path)
            found.diagnostics += read.diagnostics.filter { $0.severity == .error }
            if let model = read.model { found.models.append(model) }
        }
        return found
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
