import ModelSchema

/// Writes a model version as the snapshot Xcode's mapping editor keeps in a `.xcmappingmodel`
/// (the inverse of ``ModelSnapshotUnarchiver``): `XDPMModel` → `XDModelPackage` → `XDPMEntity`
/// → `XDPMAttribute`/`XDPMRelationship`, each Core Data setting in its stereotype property bag,
/// with the keys and classes Xcode writes.
public enum ModelSnapshotArchiver {
    /// The snapshot archive of `version`.
    public static func archive(_ version: ModelVersion) -> [UInt8] {
        let model = ArchivedObject(["XDPMModel", "XDModel", "NSObject"])
        let package = ArchivedObject(["XDModelPackage", "XDUMLPackageImp", "XDUMLNamespaceImp", "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"])
        var entities = [String: ArchivedObject]()
        for entity in version.entities { entities[entity.name] = element(["XDPMEntity"] + classChain, entity.name, owner: package) }
        var relationships = [String: ArchivedObject]()
        for entity in version.entities {
            for relationship in entity.relationships {
                relationships["\(entity.name).\(relationship.name)"] = element(propertyClasses("XDPMRelationship"), relationship.name, owner: entities[entity.name])
            }
        }
        let genericClass = element(classChain, "XDGenericRecordClass", owner: nil)
        genericClass["_isAbstract"] = .bool(false)
        for entity in version.entities {
            guard let object = entities[entity.name] else { continue }
            fill(object, entity, entities: entities, relationships: relationships, genericClass: genericClass)
        }
        for (key, value) in [
            ("XDBucketForClassesstorage", ArchiveValue.object(ArchiveClass.dictionaryObject(version.entities.compactMap { e in entities[e.name].map { (e.name, .object($0)) } }))),
            ("XDBucketForPackagesstorage", .object(ArchiveClass.dictionaryObject([]))),
            ("XDBucketForInterfacesstorage", .object(ArchiveClass.dictionaryObject([]))),
            ("XDBucketForDataTypesstorage", .object(ArchiveClass.dictionaryObject([]))),
            ("XDBucketForClasseswasEncoded", .string("YES")), ("XDBucketForPackageswasEncoded", .string("YES")),
            ("XDBucketForInterfaceswasEncoded", .string("YES")), ("XDBucketForDataTypeswasEncoded", .string("YES")),
            ("_name", .string("")), ("_owner", .null), ("_uniqueElementID", .null), ("_visibility", .integer(0)),
            ("_xd_owningModel", .object(model)),
        ] { package[key] = value }
        model.fields = [
            ("_xd_rootPackage", .object(package)), ("_xd_comments", .object(ArchiveClass.arrayObject([]))),
            ("_xd_modelManager", .null), ("_configurationsByName", .object(ArchiveClass.dictionaryObject([]))),
            ("_xd_modelName", .null), ("_modelVersionIdentifier", .string(version.versionIdentifier)),
        ]
        defer { model.releaseGraph() }
        return KeyedArchiveWriter.archive(model)
    }

    // MARK: - Elements

    private static let classChain = ["XDUMLClassImp", "XDUMLClassifierImp", "XDUMLNamespaceImp", "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"]
    private static let umlProperty = ["XDUMLPropertyImp", "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"]

    private static func propertyClasses(_ name: String) -> [String] {
        [name, "XDPMProperty"] + umlProperty
    }

    private static func element(_ classes: [String], _ name: String, owner: ArchivedObject?) -> ArchivedObject {
        ArchivedObject(classes, fields: [
            ("_name", .string(name)), ("_owner", owner.map { .object($0) } ?? .null), ("_uniqueElementID", .null),
            ("_visibility", .integer(0)),
        ])
    }

    private static func fill(
        _ object: ArchivedObject, _ entity: Entity, entities: [String: ArchivedObject],
        relationships: [String: ArchivedObject], genericClass: ArchivedObject
    ) {
        var owned = [(String, ArchiveValue)]()
        for attribute in entity.attributes {
            let property = element(propertyClasses("XDPMAttribute"), attribute.name, owner: object)
            propertyFields(property, stereotypes: [
                stereotype("XD_PPropStereotype", owner: property, common(attribute.isOptional, attribute.isTransient, attribute.versionHashModifier, attribute.renamingIdentifier)),
                stereotype("XD_PAtt_Stereotype", owner: property, [
                    ("XD_PAttK_attributeType", .number(.integer(Int64(attribute.type.rawValue)))),
                    ("XD_PAttK_defaultValueAsString", optional(attribute.defaultValueString)),
                    ("XD_PAttK_allowsExternalBinaryDataStorage", .number(.bool(attribute.allowsExternalBinaryDataStorage))),
                    ("XD_PAttK_minValueString", optional(attribute.minValueString)),
                    ("XD_PAttK_maxValueString", optional(attribute.maxValueString)),
                    ("XD_PAttK_valueTransformerName", optional(attribute.valueTransformerName)),
                    ("XD_PAttK_regularExpressionString", optional(attribute.regularExpressionString)),
                ]),
            ])
            owned.append((attribute.name, .object(property)))
        }
        for relationship in entity.relationships {
            guard let property = relationships["\(entity.name).\(relationship.name)"] else { continue }
            let inverse = relationship.inverseName.flatMap { relationships["\(relationship.destinationEntityName).\($0)"] }
            propertyFields(property, stereotypes: [
                stereotype("XD_PPropStereotype", owner: property, common(relationship.isOptional, relationship.isTransient, relationship.versionHashModifier, relationship.renamingIdentifier)),
                stereotype("XD_PR_Stereotype", owner: property, [
                    ("XD_PRK_minCount", .number(.integer(Int64(relationship.effectiveMinCount)))),
                    ("XD_PRK_maxCount", .number(.integer(Int64(relationship.effectiveMaxCount)))),
                    ("XD_PRK_deleteRule", .number(.integer(Int64(relationship.deleteRule.rawValue)))),
                    ("XD_PRK_destination", entities[relationship.destinationEntityName].map { .object($0) } ?? .null),
                    ("XD_PRK_isToMany", .number(.bool(relationship.isToMany))),
                    ("XD_PRK_ordered", .number(.bool(relationship.isOrdered))),
                    ("XD_PRK_inverseRelationship", inverse.map { .object($0) } ?? .null),
                ]),
            ])
            owned.append((relationship.name, .object(property)))
        }
        let parent = entity.parentEntityName.flatMap { entities[$0] }
        let generalizations: [ArchiveValue] = parent.map { general in
            let link = ArchivedObject(["XDUMLGeneralizationImp", "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"], fields: [
                ("_name", .null), ("_owner", .object(object)), ("_uniqueElementID", .null), ("_visibility", .integer(0)),
                ("_specific", .object(object)), ("_general", .object(general)),
            ])
            return [.object(link)]
        } ?? []
        let constraints = entity.uniquenessConstraints.map { ArchiveValue.object(ArchiveClass.arrayObject($0.map { .string($0) })) }
        let settings = stereotype("XD_PStereotype", owner: object, [
            ("XDPMCompoundIndexes", .object(ArchiveClass.arrayObject([]))),
            ("XDPMUniquenessConstraints", .object(ArchiveClass.arrayObject(constraints))),
            ("XD_PSK_elementID", optional(entity.renamingIdentifier)),
            ("XD_PSK_versionHashModifier", optional(entity.versionHashModifier)),
            ("XD_PSK_fetchRequestsArray", .object(ArchiveClass.arrayObject([]))),
            ("XD_PSK_isAbstract", .number(.bool(entity.isAbstract))),
            ("XD_PSK_userInfo", .object(ArchiveClass.dictionaryObject([]))),
            ("XD_PSK_classMapping", .object(genericClass)),
            ("XD_PSK_entityClassName", optional(entity.representedClassName ?? "NSManagedObject")),
        ])
        for (key, value) in [
            ("_isAbstract", ArchiveValue.bool(entity.isAbstract)),
            ("XDBucketForOwnedAttributesstorage", .object(ArchiveClass.dictionaryObject(owned))),
            ("XDBucketForStereotypesstorage", .object(ArchiveClass.dictionaryObject([("XD_PStereotype", .object(settings))]))),
            ("XDBucketForGeneralizationsstorage", .object(ArchiveClass.arrayObject(generalizations))),
            ("XDBucketForSpecializationsstorage", .object(ArchiveClass.arrayObject([]))),
        ] { object[key] = value }
        for bucket in ["OwnedAttributes", "Stereotypes", "Generalizations", "Specializations"] {
            object["XDBucketFor\(bucket)ordered"] = .string("ordered")
            object["XDBucketFor\(bucket)wasEncoded"] = .string("YES")
        }
        object["XDBucketForGeneralizationsduplicates"] = .string("duplicates")
        object["XDBucketForSpecializationsduplicates"] = .string("duplicates")
    }

    /// The UML fields every property has, and its stereotype bags.
    private static func propertyFields(_ property: ArchivedObject, stereotypes: [ArchivedObject]) {
        for (key, value) in [
            ("_type", ArchiveValue.null), ("_default", .null), ("_association", .null), ("_isReadOnly", .bool(false)),
            ("_isStatic", .bool(false)), ("_isUnique", .bool(false)), ("_isDerived", .bool(false)),
            ("_isOrdered", .bool(false)), ("_isComposite", .bool(false)), ("_isLeaf", .bool(false)),
            ("XDBucketForStereotypesordered", .string("ordered")), ("XDBucketForStereotypeswasEncoded", .string("YES")),
            ("XDBucketForStereotypesstorage", .object(ArchiveClass.dictionaryObject(stereotypes.map { ($0["_name"]?.string ?? "", .object($0)) }))),
        ] { property[key] = value }
    }

    private static func common(_ optional: Bool, _ transient: Bool, _ modifier: String?, _ elementID: String?) -> [(String, ArchiveValue)] {
        [
            ("XD_PPSK_isOptional", .number(.bool(optional))), ("XD_PPSK_isTransient", .number(.bool(transient))),
            ("XD_PPSK_versionHashModifier", Self.optional(modifier)), ("XD_PPSK_elementID", Self.optional(elementID)),
            ("XD_PPSK_isIndexed", .number(.bool(false))), ("XD_PPSK_isSpotlightIndexed", .number(.bool(false))),
            ("XD_PPSK_isStoredInTruthFile", .number(.bool(false))), ("XD_PPSK_userInfo", .object(ArchiveClass.dictionaryObject([]))),
        ]
    }

    /// A stereotype: a named bag of `XDUMLPropertyImp`, each holding one setting in `_default`.
    private static func stereotype(_ name: String, owner: ArchivedObject, _ values: [(String, ArchiveValue)]) -> ArchivedObject {
        let bag = element(["XDUMLStereotypeImp"] + classChain, name, owner: owner)
        let properties = values.map { key, value in
            let property = element(umlProperty, key, owner: bag)
            propertyFields(property, stereotypes: [])
            property.fields.removeAll { $0.key.hasPrefix("XDBucketFor") }
            property["_default"] = value
            return (key, ArchiveValue.object(property))
        }
        bag["_isAbstract"] = .bool(false)
        bag["XDBucketForOwnedAttributesstorage"] = .object(ArchiveClass.dictionaryObject(properties))
        bag["XDBucketForOwnedAttributesordered"] = .string("ordered")
        bag["XDBucketForOwnedAttributeswasEncoded"] = .string("YES")
        return bag
    }

    private static func optional(_ text: String?) -> ArchiveValue {
        text.map { .string($0) } ?? .null
    }
}
