import ModelSchema

/// A `.momd` bundle's `VersionInfo.plist`: the current version, and each version's entity
/// hashes and (since Xcode 15) checksum, which Core Data reads to pick a version for a store
/// without loading every model.
public struct VersionInfo: Sendable, Hashable {
    /// `nil` when the file has no `NSManagedObjectModel_CurrentVersionName`, as momc writes it for
    /// a source bundle without `.xccurrentversion`.
    public var currentVersionName: String?
    public var versionHashes: [String: [String: VersionHash]]
    /// `nil` when the file has no `NSManagedObjectModel_VersionChecksums` (before Xcode 15).
    public var versionChecksums: [String: String]?

    public init(
        currentVersionName: String?, versionHashes: [String: [String: VersionHash]],
        versionChecksums: [String: String]?
    ) {
        self.currentVersionName = currentVersionName
        self.versionHashes = versionHashes
        self.versionChecksums = versionChecksums
    }

    /// The binary property list, keys and nested keys sorted so that output is deterministic.
    public func encoded() -> [UInt8] {
        var root: [(key: String, value: PropertyListValue)] = []
        if let checksums = versionChecksums {
            root.append(
                ("NSManagedObjectModel_VersionChecksums",
                 .dictionary(checksums.keys.sorted().map { ($0, .string(checksums[$0]!)) })))
        }
        root.append(
            ("NSManagedObjectModel_VersionHashes",
             .dictionary(
                // Sorting the pairs rather than the keys saves looking each key up again.
                versionHashes.sorted { $0.key < $1.key }.map { version, hashes in
                    (version, .dictionary(hashes.sorted { $0.key < $1.key }.map { ($0.key, .data($0.value.bytes)) }))
                })))
        if let currentVersionName {
            root.append(("NSManagedObjectModel_CurrentVersionName", .string(currentVersionName)))
        }
        return BinaryPropertyListWriter.encode(.dictionary(root))
    }

    /// Reads a `VersionInfo.plist`, in binary form as Xcode writes it or in XML form as older
    /// tools and hand edits left it.
    public static func decode(_ bytes: [UInt8]) throws -> VersionInfo {
        let plist = try PropertyListReader.decode(bytes)
        let current = plist["NSManagedObjectModel_CurrentVersionName"]?.stringValue
        guard case .dictionary(let versions)? = plist["NSManagedObjectModel_VersionHashes"]
        else { throw BinaryPropertyListReader.FormatError(description: "not a VersionInfo.plist") }
        var hashes = [String: [String: VersionHash]]()
        for (version, value) in versions {
            guard case .dictionary(let entities) = value else { continue }
            var byEntity = [String: VersionHash]()
            for (entity, hash) in entities {
                if case .data(let bytes) = hash { byEntity[entity] = VersionHash(bytes: bytes) }
            }
            hashes[version] = byEntity
        }
        var checksums: [String: String]?
        if case .dictionary(let entries)? = plist["NSManagedObjectModel_VersionChecksums"] {
            checksums = Dictionary(entries.compactMap { entry in entry.value.stringValue.map { (entry.key, $0) } }) { a, _ in a }
        }
        return VersionInfo(currentVersionName: current, versionHashes: hashes, versionChecksums: checksums)
    }
}
