import ArgumentParser
import ModelSchema
import ModelXML

/// `modelc hash`: Core Data's version hashes of each version of a model.
struct HashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash",
        abstract: "Print the entity version hashes, versionChecksum and hashes digest of a model.",
        discussion: """
            The values are the ones Core Data computes: entity hashes as in a store's \
            NSStoreModelVersionHashes (64 hex digits), the model's versionChecksum (base64, \
            as in NSStoreModelVersionChecksumKey and VersionInfo.plist) and \
            NSStoreModelVersionHashesDigest (base64). The model is validated first: a model \
            with errors prints them and exits 1, as compile does; S110 (a transient \
            inverse, see --suppress-inverse-transient-error) is only a warning, since Xcode \
            builds such a model with MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR.

            JSON form: {"versions":[{"name":…,"entities":{"Entity":"<hex>"},\
            "versionChecksum":…,"hashesDigest":…}]}
            """
    )

    @Argument(help: "A .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    @Option(help: "Hash only this version (the folder name without .xcdatamodel).")
    var modelVersion: String?

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: model, hash)
    }

    /// Validates the model, then prints the hashes of the versions asked for.
    private func hash() throws {
        let bundle = try ModelLoading.read(model, options: modelValidation.validation)
        let versions = try modelVersion.map { [try ModelLoading.version($0, of: bundle)] } ?? bundle.versions
        let rows = versions.map { version -> VersionHashes in
            let hasher = VersionHasher(version)
            let hashes = hasher.entityHashes()
            return VersionHashes(
                name: version.name, entities: hashes.mapValues(\.hex),
                versionChecksum: hasher.versionChecksum(hashes), hashesDigest: hasher.hashesDigest(hashes))
        }
        if json {
            try JSONOutput.print(HashReport(versions: rows))
        } else {
            for (index, row) in rows.enumerated() {
                if index > 0 { print() }
                let current = row.name == bundle.currentVersionName && bundle.isVersioned ? " (current)" : ""
                print("\(row.name)\(current)")
                print("  versionChecksum  \(row.versionChecksum)")
                print("  hashesDigest     \(row.hashesDigest)")
                let width = row.entities.keys.map(\.count).max() ?? 0
                for name in row.entities.keys.sorted() {
                    print("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.entities[name]!)")
                }
            }
        }
    }
}

struct HashReport: Encodable {
    var versions: [VersionHashes]
}

struct VersionHashes: Encodable {
    var name: String
    var entities: [String: String]
    var versionChecksum: String
    var hashesDigest: String
}
