/// A model as a user keeps it: a `.xcdatamodeld` bundle of versions, or a lone `.xcdatamodel`.
///
/// A lone model is a bundle of one version with no `.xccurrentversion`; ``isVersioned`` tells
/// the two apart so that the compiler writes `Name.momd/` or `Name.mom` as Xcode does.
public struct ModelBundle: Sendable, Hashable {
    /// The bundle name without its extension (`Model` for `Model.xcdatamodeld`).
    public var name: String
    /// The path the bundle was read from.
    public var path: String
    /// `true` for a `.xcdatamodeld` folder, `false` for a lone `.xcdatamodel`.
    public var isVersioned: Bool
    /// The version named by `.xccurrentversion`, without the `.xcdatamodel` extension.
    public var currentVersionName: String?
    /// Every version of the bundle, sorted by name as Finder sorts them.
    public var versions: [ModelVersion]
    /// `true` when nothing names the current version (a `.xcdatamodeld` without
    /// `.xccurrentversion`, a `VersionInfo.plist` without `NSManagedObjectModel_CurrentVersionName`)
    /// and ``currentVersionName`` is modelc's choice: the only or last version in Finder order.
    public var currentVersionIsInferred: Bool

    public init(
        name: String, path: String, isVersioned: Bool,
        currentVersionName: String?, versions: [ModelVersion], currentVersionIsInferred: Bool = false
    ) {
        self.name = name
        self.path = path
        self.isVersioned = isVersioned
        self.currentVersionName = currentVersionName
        self.versions = versions
        self.currentVersionIsInferred = currentVersionIsInferred
    }

    /// The version with the given name (folder name without `.xcdatamodel`).
    public func version(named name: String) -> ModelVersion? {
        versions.first { $0.name == name }
    }

    /// The current version: the one `.xccurrentversion` names, else the only or last version.
    public var currentVersion: ModelVersion? {
        if let name = currentVersionName, let version = version(named: name) { return version }
        return versions.count == 1 ? versions[0] : versions.last
    }
}

/// One version of a model: the content of one `.xcdatamodel/contents` file.
public struct ModelVersion: Sendable, Hashable {
    /// The version name: the folder name without `.xcdatamodel`.
    public var name: String
    /// The path of the `contents` file, used in diagnostics.
    public var path: String
    /// `userDefinedModelVersionIdentifier`, which Core Data stores as the model's version identifier.
    public var versionIdentifier: String
    /// Xcode bookkeeping from the `<model>` element, kept so that decompiled XML round-trips.
    public var document: DocumentInfo
    public var entities: [Entity]
    public var fetchRequests: [FetchRequestTemplate]
    public var configurations: [Configuration]
    public var composites: [CompositeDefinition]
    /// Where the `<model>` element starts.
    public var location: SourceLocation

    public init(
        name: String, path: String, versionIdentifier: String = "",
        document: DocumentInfo = DocumentInfo(), entities: [Entity] = [],
        fetchRequests: [FetchRequestTemplate] = [], configurations: [Configuration] = [],
        composites: [CompositeDefinition] = [], location: SourceLocation = .unknown
    ) {
        self.name = name
        self.path = path
        self.versionIdentifier = versionIdentifier
        self.document = document
        self.entities = entities
        self.fetchRequests = fetchRequests
        self.configurations = configurations
        self.composites = composites
        self.location = location
    }

    /// The entity with the given name.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}

/// The informational attributes of the `<model>` element (tools version, language, flags).
public struct DocumentInfo: Sendable, Hashable {
    public var lastSavedToolsVersion: String?
    public var systemVersion: String?
    public var minimumToolsVersion: String?
    public var sourceLanguage: String?
    public var usedWithCloudKit: Bool
    public var usedWithSwiftData: Bool
    /// Legacy Xcode 4 fields (`name`, `macOSVersion`, `iOSVersion`), in document order.
    public var legacyAttributes: [UserInfoEntry]

    public init(
        lastSavedToolsVersion: String? = nil, systemVersion: String? = nil,
        minimumToolsVersion: String? = nil, sourceLanguage: String? = nil,
        usedWithCloudKit: Bool = false, usedWithSwiftData: Bool = false,
        legacyAttributes: [UserInfoEntry] = []
    ) {
        self.lastSavedToolsVersion = lastSavedToolsVersion
        self.systemVersion = systemVersion
        self.minimumToolsVersion = minimumToolsVersion
        self.sourceLanguage = sourceLanguage
        self.usedWithCloudKit = usedWithCloudKit
        self.usedWithSwiftData = usedWithSwiftData
        self.legacyAttributes = legacyAttributes
    }
}
