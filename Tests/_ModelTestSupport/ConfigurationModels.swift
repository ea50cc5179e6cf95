import Foundation

/// CoreStore's test model (configurations Config1 and Config2, holding TestEntity1AAA and
/// TestEntity2) written as a bundle of several versions, since no corpus model has both
/// configurations and several versions: `Model` as the corpus has it, then versions that each add
/// attributes or entities to the one before.
public enum ConfigurationModels {
    /// CoreStore's model, relative to the corpus root.
    public static let corpusModel = "JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld"

    /// What a version changes in the one before.
    public enum Change: Sendable {
        /// A String attribute added to an entity; a required one has no default value.
        case attribute(String, to: String, isOptional: Bool = true)
        /// An entity with one optional String attribute `x`, added to a configuration.
        case entity(String, in: String)
    }

    /// Writes `Model.xcdatamodeld` into `folder`: `Model` as the corpus has it, then `Model 2`,
    /// `Model 3`, … one per element of `versions`, each making its changes to the version before;
    /// the last is the current version. Returns the bundle's URL.
    @discardableResult
    public static func write(into folder: URL, versions: [[Change]]) throws -> URL {
        var contents = try String(contentsOfFile: Corpus.path(corpusModel) + "/Model.xcdatamodel/contents", encoding: .utf8)
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        try writeFile("Model.xcdatamodel/contents", contents, in: bundle)
        for (index, changes) in versions.enumerated() {
            for change in changes { contents = try changing(contents, change) }
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
        try write(into: folder, versions: [[.attribute("added", to: entity)] + (required.map { [.attribute("needed", to: $0, isOptional: false)] } ?? [])])
    }

    /// `contents` with `change` made.
    private static func changing(_ contents: String, _ change: Change) throws -> String {
        switch change {
        case .attribute(let name, let entity, let isOptional):
            let optional = isOptional ? " optional=\"YES\"" : ""
            return try inserting("<attribute name=\"\(name)\"\(optional) attributeType=\"String\"/>", after: "<entity name=\"\(entity)\"", in: contents)
        case .entity(let name, let configuration):
            let entity = "<entity name=\"\(name)\" syncable=\"YES\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>"
            let member = try inserting("<memberEntity name=\"\(name)\"/>", after: "<configuration name=\"\(configuration)\"", in: contents)
            guard let first = member.range(of: "<configuration ") else { throw unexpected("no configuration") }
            return member.replacingCharacters(in: first.lowerBound..<first.lowerBound, with: entity)
        }
    }

    /// `contents` with `element` inserted right after the start tag that begins with `tag`.
    private static func inserting(_ element: String, after tag: String, in contents: String) throws -> String {
        guard let start = contents.range(of: tag), let end = contents[start.upperBound...].firstIndex(of: ">") else {
            throw unexpected("no \(tag)>")
        }
        var result = contents
        result.insert(contentsOf: element, at: result.index(after: end))
        return result
    }

    private static func unexpected(_ what: String) -> CocoaError {
        CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "CoreStore's model has \(what)"])
    }
}
