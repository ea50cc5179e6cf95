import ArgumentParser
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelXML

/// `modelc inspect`: a readable dump of a model, source or compiled.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the versions, entities, properties, hashes and checksums of a model.",
        discussion: """
            PATH may be a source model (.xcdatamodeld, .xcdatamodel) or a compiled one \
            (.momd, .mom). With --json, prints {"name","current","versions":[{"name",\
            "versionIdentifier","versionChecksum","hashesDigest","entities":[{"name","parent",\
            "abstract","hash","attributes","relationships"}]}]}.
            """
    )

    @Argument(help: "A model, source or compiled.", completion: .file())
    var path: String

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    @Option(help: "For a mapping model: the model bundle whose source and destination versions it matches.")
    var model: String?

    func run() throws {
        try CommandFailure.reporting(json: json, path: path) {
            if MappingCompilation.isMappingModel(path) { return try MappingCommands.inspect(path, model: model, json: json, options: modelValidation.validation) }
            let bundle = try ModelLoading.read(path, options: modelValidation.validation)
            let report = ModelReport(bundle)
            if json {
                try JSONOutput.print(report)
            } else {
                print(report.text)
            }
        }
    }
}

/// What `inspect` shows, as data.
struct ModelReport: Encodable {
    var name: String
    var current: String?
    /// `true` when nothing in the model names its current version and `current` is modelc's pick.
    var currentInferred: Bool
    var versions: [Version]

    struct Version: Encodable {
        var name: String
        var versionIdentifier: String
        var versionChecksum: String
        var hashesDigest: String
        var entities: [Entity]
    }

    struct Entity: Encodable {
        var name: String
        var parent: String?
        var abstract: Bool
        var hash: String
        var attributes: [String]
        var relationships: [String]
    }

    init(_ bundle: ModelBundle) {
        name = bundle.name
        current = bundle.currentVersionName
        currentInferred = bundle.currentVersionIsInferred
        versions = bundle.versions.map { version in
            let hasher = VersionHasher(version)
            let hashes = hasher.entityHashes()
            return Version(
                name: version.name, versionIdentifier: version.versionIdentifier,
                versionChecksum: hasher.versionChecksum(hashes), hashesDigest: hasher.hashesDigest(hashes),
                entities: version.entities.sorted { $0.name < $1.name }.map { entity in
                    Entity(
                        name: entity.name, parent: entity.parentEntityName, abstract: entity.isAbstract,
                        hash: hashes[entity.name]?.hex ?? "",
                        attributes: entity.attributes.map { "\($0.name): \($0.type.xmlName ?? "Undefined")\($0.isOptional ? "?" : "")" },
                        relationships: entity.relationships.map {
                            "\($0.name) -> \($0.isToMany ? "[\($0.destinationEntityName)]" : $0.destinationEntityName)\($0.isOptional ? "?" : "")"
                        })
                })
        }
    }

    var text: String {
        var lines = ["\(name): \(versions.count) version\(versions.count == 1 ? "" : "s"), current '\(current ?? "")'\(currentInferred ? " (inferred: none is named)" : "")"]
        for version in versions {
            lines.append("")
            lines.append("\(version.name)\(version.name == current ? " (current)" : "")  identifier '\(version.versionIdentifier)'")
            lines.append("  versionChecksum  \(version.versionChecksum)")
            lines.append("  hashesDigest     \(version.hashesDigest)")
            for entity in version.entities {
                let kind = entity.abstract ? "abstract entity" : "entity"
                let parent = entity.parent.map { " : \($0)" } ?? ""
                lines.append("  \(kind) \(entity.name)\(parent)  \(entity.hash)")
                for attribute in entity.attributes { lines.append("    \(attribute)") }
                for relationship in entity.relationships { lines.append("    \(relationship)") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
