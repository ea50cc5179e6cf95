import Foundation

/// CoreStore's test model (configurations Config1 and Config2, holding TestEntity1AAA and
/// TestEntity2) written as a bundle of several versions, since no corpus model has both
/// configurations and several versions: `Model` as the corpus has it, then versions that each add
/// String attributes to the one before.
public enum ConfigurationModels {
    /// CoreStore's model, relative to the corpus root.
    public static let corpusModel = "JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld"

    /// A String attribute a version adds to an entity.
    public struct Addition: Sendable {
        public var entity: String
        public var attribute: String
        /// Whether it is optional; a required one has no default value.
        public var isOptional: Bool

        public init(_ attribute: String, to entity: String, isOptional: Bool = true) {
            self.entity = entity
            self.attribute = attribute
            self.isOptional = isOptional
        }
    }

    /// Writes `Model.xcdatamodeld` into `folder`: `Model` as the corpus has it, then `Model 2`,
    /// `Model 3`, … one per element of `versions`, each adding its attributes to the version before;
    /// the last is the current version. Returns the bundle's URL.
    @discardableResult
    public static func write(into folder: URL, versions: [[Addition]]) throws -> URL {
        var contents = try String(contentsOfFile: Corpus.path(corpusModel) + "/Model.xcdatamodel/contents", encoding: .utf8)
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        try writeFile("Model.xcdatamodel/contents", contents, in: bundle)
        for (index, additions) in versions.enumerated() {
            for addition in additions {
                let optional = addition.isOptional ? " optional=\"YES\"" : ""
                contents = try adding("<attribute name=\"\(addition.attribute)\"\(optional) attributeType=\"String\"/>", to: addition.entity, in: contents)
            }
            try writeFile("Model \(index + 2).xcdatamodel/contents", contents, in: bundle)
        }
        try writeFile(".xccurrentversion", ModelFiles.xccurrentversion(versions.isEmpty ? "Model" : "Model \(versions.count + 1)"), in: bundle)
        return bundle
    }

    /// Two versions: `Model 2`, the current one, adds the optional attribute `added` (column
    /// `ZADDED`) to `entity` and, when `required` names an entity, the required attribute `needed`
    /// without a default to it.
    @discardableResult
    public static func write(into folder: URL, addingAttributeTo entity: String, requiredAttributeTo required: String? = nil) throws -> URL {
        try write(into: folder, versions: [[Addition("added", to: entity)] + (required.map { [Addition("needed", to: $0, isOptional: false)] } ?? [])])
    }

    /// `contents` with `element` inserted first in the element of entity `entity`.
    private static func adding(_ element: String, to entity: String, in contents: String) throws -> String {
        guard let start = contents.range(of: "<entity name=\"\(entity)\""), let end = contents[start.upperBound...].firstIndex(of: ">") else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "CoreStore's model has no entity '\(entity)'"])
        }
        var result = contents
        result.insert(contentsOf: element, at: result.index(after: end))
        return result
    }
}
