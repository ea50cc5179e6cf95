import ModelSchema

/// Reads an Xcode 3 model version: the `elements` file of a `.xcdatamodel` folder from before
/// Xcode 4, a keyed archive of Xcode's private modelling classes, into a ``ModelVersion`` that
/// validates, hashes, compiles and decompiles like one read from `contents` XML.
///
/// The archive (`XDPMModel` → `XDModelPackage` → `XDPMEntity` → `XDPMAttribute` /
/// `XDPMRelationship`) keeps each Core Data setting as a "stereotype" property whose `_default`
/// is the value (`XD_PAttK_attributeType` = 700, `XD_PRK_destination` = an `XDPMEntity` …); see
/// ``Xcode3Stereotypes``. The `layout` file beside it is the diagram and is not read. A class or
/// key this reader does not know is an error that names it, never a silent loss.
public enum Xcode3ModelReader {
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// What an `elements` file holds: the version, and the user-info keys whose values
    /// (dictionaries: Sync Services' resolution policies) today's XML cannot hold and were dropped.
    public struct Reading: Sendable {
        public var version: ModelVersion
        public var droppedUserInfoKeys: [String]
    }

    /// The version named `name` from the bytes of an `elements` file at `path`.
    public static func read(elements bytes: [UInt8], name: String, path: String) throws -> Reading {
        let root = try KeyedArchiveReader.unarchive(bytes)
        // The graph's cycles (owner ↔ owned, relationship ↔ inverse) would keep it alive.
        defer { root.releaseGraph() }
        guard root.className == "XDPMModel" else {
            throw FormatError(description: "the archive's root is a \(root.className), not an XDPMModel")
        }
        guard let package = root["_xd_rootPackage"]?.object else {
            throw FormatError(description: "XDPMModel has no _xd_rootPackage")
        }
        var version = ModelVersion(name: name, path: path)
        let dropped = Xcode3Stereotypes.DroppedKeys()
        version.versionIdentifier = root["_modelVersionIdentifier"]?.string ?? ""
        for (entityName, value) in ModelUnarchiver.entries(package["XDBucketForClassesstorage"]) {
            guard let object = value.object, object.className == "XDPMEntity" else {
                throw FormatError(description: "unsupported class \(value.object?.className ?? "value") for entity '\(entityName)'")
            }
            let (entity, requests) = try Self.entity(object, name: entityName, dropped: dropped)
            version.entities.append(entity)
            version.fetchRequests += requests
        }
        version.entities.sort { $0.name < $1.name }
        version.fetchRequests.sort { $0.name < $1.name }
        version.configurations = try ModelUnarchiver.entries(root["_configurationsByName"]).map { entry in
            let members = try names(entry.value, in: "configuration '\(entry.key)'")
            return Configuration(name: entry.key, memberEntityNames: members.sorted())
        }.sorted { $0.name < $1.name }
        return Reading(version: version, droppedUserInfoKeys: dropped.keys.sorted())
    }

    // MARK: - Entities

    /// One `XDPMEntity` with its attributes and relationships, and its fetch request templates.
    private static func entity(
        _ object: ArchivedObject, name: String, dropped: Xcode3Stereotypes.DroppedKeys
    ) throws -> (Entity, [FetchRequestTemplate]) {
        let settings = try Xcode3Stereotypes(object, owner: "entity '\(name)'", dropped: dropped)
        let className = settings.string("XD_PSK_entityClassName")
        var entity = Entity(
            name: name, representedClassName: className == "NSManagedObject" ? nil : className,
            parentEntityName: try parentName(object, entity: name),
            isAbstract: settings.bool("XD_PSK_isAbstract") || object["_isAbstract"]?.bool == true,
            isSyncable: true, renamingIdentifier: settings.string("XD_PSK_elementID"),
            versionHashModifier: settings.string("XD_PSK_versionHashModifier"), userInfo: settings.userInfo("XD_PSK_userInfo"))
        for (propertyName, value) in ModelUnarchiver.entries(object["XDBucketForOwnedAttributesstorage"]) {
            let property = value.object
            switch property?.className {
            case "XDPMAttribute": entity.attributes.append(try Xcode3Properties.attribute(property!, name: propertyName, entity: name, dropped: dropped))
            case "XDPMRelationship": entity.relationships.append(try Xcode3Properties.relationship(property!, name: propertyName, entity: name, dropped: dropped))
            default:
                throw FormatError(description: "unsupported class \(property?.className ?? "value") for property '\(propertyName)' of entity '\(name)'")
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        entity.compoundIndexes = try compoundIndexes(settings.value("XDPMCompoundIndexes"), entity: name)
        let requests = try fetchRequests(settings.list("XD_PSK_fetchRequestsArray"), entity: name)
        try settings.checkAllRead(ignoring: ["XD_PSK_classMapping"])
        return (entity, requests)
    }

    /// The fetch request templates Xcode 3 kept on their entity (`XD_PSK_fetchRequestsArray`):
    /// `XDPMFetchRequest`s of a `_name` and a `_predicateString`, which Xcode 4's conversion
    /// writes as model-level `<fetchRequest name= entity= predicateString=>` (mogenerator's
    /// `test.xcdatamodel`, before and after 6f34c08).
    private static func fetchRequests(_ list: [ArchiveValue], entity: String) throws -> [FetchRequestTemplate] {
        try list.map { item in
            guard let request = item.object, request.className == "XDPMFetchRequest", let name = request["_name"]?.string,
                request["_fetchedProperty"]?.object == nil
            else {
                throw FormatError(description: "unsupported class \(item.object?.className ?? "value") in XD_PSK_fetchRequestsArray of entity '\(entity)'")
            }
            return FetchRequestTemplate(name: name, entityName: entity, predicateString: request["_predicateString"]?.string)
        }
    }

    /// The superentity, from the entity's one generalization: an `XDUMLGeneralizationImp` whose
    /// `_general` is the parent `XDPMEntity` (`_specific` and `_owner` are the entity itself), as
    /// in mogenerator's Xcode 3 `test.xcdatamodel`, whose `Parent` and `Child` specialise `Human`.
    private static func parentName(_ object: ArchivedObject, entity: String) throws -> String? {
        let generalizations = object["XDBucketForGeneralizationsstorage"]?.object.map(ModelUnarchiver.items) ?? []
        guard let first = generalizations.first else { return nil }
        let parent = first.object?.className == "XDUMLGeneralizationImp" ? first.object?["_general"]?.object : nil
        guard generalizations.count == 1, let parent, parent.className == "XDPMEntity", let name = parent["_name"]?.string else {
            throw FormatError(description: "unsupported XDBucketForGeneralizationsstorage of entity '\(entity)' (\(generalizations.count) × \(first.object?.className ?? "value"))")
        }
        return name
    }

    /// Compound indexes: lists of properties (or property names).
    private static func compoundIndexes(_ value: ArchiveValue?, entity: String) throws -> [[String]] {
        guard let list = value?.object else { return [] }
        return try ModelUnarchiver.items(list).map { try names($0, in: "XDPMCompoundIndexes of entity '\(entity)'") }
    }

    /// The names in a list of elements (entities, properties) or of plain names.
    private static func names(_ list: ArchiveValue, in owner: String) throws -> [String] {
        try (list.object.map(ModelUnarchiver.items) ?? []).map { member in
            guard let name = member.string ?? member.object?["_name"]?.string else {
                throw FormatError(description: "unsupported \(member.object?.className ?? "value") in \(owner)")
            }
            return name
        }
    }
}
