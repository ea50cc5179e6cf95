import ModelSchema

/// Decodes the model snapshots Xcode's mapping editor keeps in a `.xcmappingmodel`
/// (`sourcemodeldata`, `destinationmodeldata`): keyed archives of Xcode's private UML-like classes
/// (`XDPMModel` → `XDModelPackage` → `XDPMEntity` → `XDPMAttribute`/`XDPMRelationship`), whose
/// Core Data settings live in "stereotype" property bags (`XD_PPSK_isOptional`,
/// `XD_PAttK_attributeType`, `XD_PRK_destination`, …).
///
/// The snapshot keeps what the version hashes need, so the entities decoded here hash as the
/// model did when the mapping was edited. It has no keys for derived or composite attributes,
/// nor for `preservesValueInHistoryOnDeletion`: such attributes decode as plain attributes of
/// their stored type, and their hashes may then differ from the model's.
public enum ModelSnapshotUnarchiver {
    public typealias FormatError = MappingModelUnarchiver.FormatError

    /// The snapshot in `bytes` as a model version named `name`.
    public static func version(_ bytes: [UInt8], name: String, path: String) throws(FormatError) -> ModelVersion {
        let root = try MappingModelUnarchiver.unarchive(bytes)
        defer { root.releaseGraph() }
        guard root.className == "XDPMModel", let package = root["_xd_rootPackage"]?.object else {
            throw FormatError(description: "the snapshot's root is \(root.className), not an XDPMModel")
        }
        let entities = ModelUnarchiver.entries(package["XDBucketForClassesstorage"])
            .compactMap { $0.value.object }
            .filter { $0.className == "XDPMEntity" }
            .map(entity)
            .sorted { NameOrder.precedes($0.name, $1.name) }
        let identifier = root["_modelVersionIdentifier"]?.string ?? ""
        return ModelVersion(name: name, path: path, versionIdentifier: identifier, entities: entities)
    }

    // MARK: - Entities

    private static func entity(_ object: ArchivedObject) -> Entity {
        let settings = stereotype(object, "XD_PStereotype")
        let parent = (object["XDBucketForGeneralizationsstorage"]?.object.map(ModelUnarchiver.items) ?? [])
            .compactMap { $0.object?["_general"]?.object?["_name"]?.string }.first
        var entity = Entity(
            name: object["_name"]?.string ?? "", representedClassName: settings["XD_PSK_entityClassName"]?.string,
            parentEntityName: parent,
            isAbstract: settings["XD_PSK_isAbstract"]?.bool ?? object["_isAbstract"]?.bool ?? false,
            renamingIdentifier: nonEmpty(settings["XD_PSK_elementID"]?.string),
            versionHashModifier: nonEmpty(settings["XD_PSK_versionHashModifier"]?.string),
            uniquenessConstraints: nameLists(settings["XDPMUniquenessConstraints"]))
        for (_, value) in ModelUnarchiver.entries(object["XDBucketForOwnedAttributesstorage"]) {
            guard let property = value.object else { continue }
            switch property.className {
            case "XDPMAttribute": entity.attributes.append(attribute(property))
            case "XDPMRelationship": entity.relationships.append(relationship(property))
            default: break
            }
        }
        return entity
    }

    private static func attribute(_ object: ArchivedObject) -> Attribute {
        let common = stereotype(object, "XD_PPropStereotype")
        let settings = stereotype(object, "XD_PAtt_Stereotype")
        let code = Int(settings["XD_PAttK_attributeType"]?.integer ?? 0)
        return Attribute(
            name: object["_name"]?.string ?? "", type: AttributeType(rawValue: UInt32(clamping: code)) ?? .undefined,
            isOptional: common["XD_PPSK_isOptional"]?.bool ?? true,
            isTransient: common["XD_PPSK_isTransient"]?.bool ?? false,
            defaultValueString: settings["XD_PAttK_defaultValueAsString"]?.string,
            valueTransformerName: settings["XD_PAttK_valueTransformerName"]?.string,
            allowsExternalBinaryDataStorage: settings["XD_PAttK_allowsExternalBinaryDataStorage"]?.bool ?? false,
            versionHashModifier: nonEmpty(common["XD_PPSK_versionHashModifier"]?.string),
            renamingIdentifier: nonEmpty(common["XD_PPSK_elementID"]?.string))
    }

    private static func relationship(_ object: ArchivedObject) -> Relationship {
        let common = stereotype(object, "XD_PPropStereotype")
        let settings = stereotype(object, "XD_PR_Stereotype")
        return Relationship(
            name: object["_name"]?.string ?? "",
            isOptional: common["XD_PPSK_isOptional"]?.bool ?? true,
            isTransient: common["XD_PPSK_isTransient"]?.bool ?? false,
            isToMany: settings["XD_PRK_isToMany"]?.bool ?? false,
            isOrdered: settings["XD_PRK_ordered"]?.bool ?? false,
            minCount: settings["XD_PRK_minCount"]?.integer.map { Int($0) },
            maxCount: settings["XD_PRK_maxCount"]?.integer.map { Int($0) },
            deleteRule: DeleteRule(rawValue: Int(settings["XD_PRK_deleteRule"]?.integer ?? 1)) ?? .nullify,
            destinationEntityName: settings["XD_PRK_destination"]?.object?["_name"]?.string ?? "",
            inverseName: settings["XD_PRK_inverseRelationship"]?.object?["_name"]?.string,
            inverseEntityName: settings["XD_PRK_destination"]?.object?["_name"]?.string,
            renamingIdentifier: nonEmpty(common["XD_PPSK_elementID"]?.string),
            versionHashModifier: nonEmpty(common["XD_PPSK_versionHashModifier"]?.string))
    }

    // MARK: - Stereotypes

    /// The values of a stereotype's property bag, by key (each an `XDUMLPropertyImp`'s `_default`).
    private static func stereotype(_ object: ArchivedObject, _ name: String) -> [String: ArchiveValue] {
        let stereotypes = ModelUnarchiver.entries(object["XDBucketForStereotypesstorage"])
        guard let bag = stereotypes.first(where: { $0.key == name })?.value.object else { return [:] }
        var values = [String: ArchiveValue]()
        for (key, value) in ModelUnarchiver.entries(bag["XDBucketForOwnedAttributesstorage"]) {
            if let stored = value.object?["_default"] { values[key] = stored }
        }
        return values
    }

    /// An array of arrays of names (uniqueness constraints).
    private static func nameLists(_ value: ArchiveValue?) -> [[String]] {
        (value?.object.map(ModelUnarchiver.items) ?? []).compactMap { list in
            list.object.map { ModelUnarchiver.items($0).compactMap(\.string) }
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        text?.isEmpty == false ? text : nil
    }
}
