import ModelSchema

/// Turns the XML of one `contents` file into a ``ModelVersion``, recording every problem.
///
/// Unknown XML attributes and elements are ignored, as Xcode ignores them; missing or
/// unparsable required values become `X0xx` diagnostics and reading goes on.
struct ModelDocumentReader {
    private(set) var diagnostics = DiagnosticList()

    mutating func read(_ root: XMLElementNode, name: String, path: String) -> ModelVersion? {
        guard root.name == "model" else {
            diagnostics.emit(.notAModel(root.name, at: root.location))
            return nil
        }
        var version = ModelVersion(
            name: name, path: path,
            versionIdentifier: root["userDefinedModelVersionIdentifier"] ?? "",
            document: documentInfo(root), location: root.location)
        for child in root.children {
            switch child.name {
            case "entity": version.entities.append(entity(child))
            case "fetchRequest": version.fetchRequests.append(fetchRequest(child))
            case "configuration": version.configurations.append(configuration(child))
            case "composite": version.composites.append(composite(child))
            default: break
            }
        }
        return version
    }

    // MARK: - Model and entities

    private func documentInfo(_ element: XMLElementNode) -> DocumentInfo {
        let legacy = ["name", "macOSVersion", "iOSVersion"].compactMap { key in
            element[key].map { UserInfoEntry(key: key, value: $0) }
        }
        return DocumentInfo(
            lastSavedToolsVersion: element["lastSavedToolsVersion"], systemVersion: element["systemVersion"],
            minimumToolsVersion: element["minimumToolsVersion"], sourceLanguage: element["sourceLanguage"],
            usedWithCloudKit: element.flag("usedWithCloudKit"), usedWithSwiftData: element.flag("usedWithSwiftData"),
            legacyAttributes: legacy)
    }

    private mutating func entity(_ element: XMLElementNode) -> Entity {
        var entity = Entity(
            name: required("name", of: element), representedClassName: element["representedClassName"],
            parentEntityName: element["parentEntity"], isAbstract: element.flag("isAbstract"),
            isSyncable: element.flag("syncable"), codeGenerationType: element["codeGenerationType"],
            renamingIdentifier: element["elementID"], versionHashModifier: element["versionHashModifier"],
            location: element.location)
        for child in element.children {
            switch child.name {
            case "attribute": entity.attributes.append(attribute(child))
            case "relationship": entity.relationships.append(relationship(child))
            case "fetchedProperty": entity.fetchedProperties.append(fetchedProperty(child))
            case "fetchIndex": entity.fetchIndexes.append(fetchIndex(child))
            case "compoundIndexes":
                entity.compoundIndexes = child.children(named: "compoundIndex").map { index in
                    index.children(named: "index").compactMap { $0["value"] }
                }
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    entity.uniquenessConstraints.append(constraint.children(named: "constraint").compactMap { $0["value"] })
                    entity.uniquenessConstraintLocations.append(constraint.location)
                }
            case "userInfo": entity.userInfo = userInfo(child)
            default: break
            }
        }
        return entity
    }

    // MARK: - Properties

    private mutating func attribute(_ element: XMLElementNode) -> Attribute {
        var type = AttributeType.undefined
        if let typeName = element["attributeType"] {
            if let known = AttributeType(xmlName: typeName) {
                type = known
            } else {
                diagnostics.emit(.unknownAttributeType(typeName, at: element.location))
            }
        }
        return Attribute(
            name: required("name", of: element), type: type, isOptional: element.flag("optional"),
            isTransient: element.flag("transient"), defaultValueString: element["defaultValueString"],
            defaultDateTimeInterval: element["defaultDateTimeInterval"], minValueString: element["minValueString"],
            maxValueString: element["maxValueString"], minDateTimeInterval: element["minDateTimeInterval"],
            maxDateTimeInterval: element["maxDateTimeInterval"],
            regularExpressionString: element["regularExpressionString"],
            usesScalarValueType: element["usesScalarValueType"].map { $0 == "YES" },
            customClassName: element["customClassName"], valueTransformerName: element["valueTransformerName"],
            allowsExternalBinaryDataStorage: element.flag("allowsExternalBinaryDataStorage"),
            isIndexed: element.flag("indexed"), isIndexedBySpotlight: element.flag("spotlightIndexingEnabled"),
            isStoredInTruthFile: element.flag("storedInTruthFile"),
            allowsCloudEncryption: element.flag("allowsCloudEncryption"),
            preservesValueInHistoryOnDeletion: element.flag("preserveAfterDeletion"),
            isSyncable: element.flag("syncable"), versionHashModifier: element["versionHashModifier"],
            renamingIdentifier: element["elementID"], isDerived: element.flag("derived"),
            derivationExpression: element["derivationExpression"], compositeName: element["composite"],
            userInfo: element.firstChild(named: "userInfo").map(userInfo), location: element.location)
    }

    private mutating func relationship(_ element: XMLElementNode) -> Relationship {
        var rule = DeleteRule.nullify
        if let ruleName = element["deletionRule"] {
            if let known = DeleteRule(xmlName: ruleName) {
                rule = known
            } else {
                diagnostics.emit(.unknownDeleteRule(ruleName, at: element.location))
            }
        }
        return Relationship(
            name: required("name", of: element), isOptional: element.flag("optional"),
            isTransient: element.flag("transient"), isToMany: element.flag("toMany"),
            isOrdered: element.flag("ordered"), minCount: integer("minCount", of: element),
            maxCount: integer("maxCount", of: element), deleteRule: rule,
            destinationEntityName: required("destinationEntity", of: element),
            inverseName: element["inverseName"], inverseEntityName: element["inverseEntity"],
            isIndexed: element.flag("indexed"), isSyncable: element.flag("syncable"),
            renamingIdentifier: element["elementID"], versionHashModifier: element["versionHashModifier"],
            userInfo: element.firstChild(named: "userInfo").map(userInfo), location: element.location)
    }

    private mutating func fetchedProperty(_ element: XMLElementNode) -> FetchedProperty {
        let request = element.firstChild(named: "fetchRequest").map { fetchRequest($0) }
            ?? FetchRequestTemplate(name: "fetchedPropertyFetchRequest", entityName: "", location: element.location)
        return FetchedProperty(
            name: required("name", of: element), isOptional: element.flag("optional"),
            isSyncable: element.flag("syncable"), fetchRequest: request,
            userInfo: element.firstChild(named: "userInfo").map(userInfo), location: element.location)
    }

    // MARK: - Requests, indexes, configurations

    private mutating func fetchRequest(_ element: XMLElementNode) -> FetchRequestTemplate {
        FetchRequestTemplate(
            name: required("name", of: element), entityName: required("entity", of: element),
            predicateString: element["predicateString"], fetchLimit: integer("fetchLimit", of: element),
            fetchBatchSize: integer("fetchBatchSize", of: element), resultType: integer("resultType", of: element),
            includesSubentities: element.flag("includeSubentities"),
            includesPropertyValues: element.flag("includePropertyValues"),
            includesPendingChanges: element.flag("includesPendingChanges"),
            returnsObjectsAsFaults: element.flag("returnObjectsAsFaults"),
            returnsDistinctResults: element.flag("returnDistinctResults"), location: element.location)
    }

    private mutating func fetchIndex(_ element: XMLElementNode) -> FetchIndex {
        FetchIndex(
            name: required("name", of: element), partialIndexPredicate: element["partialIndexPredicate"],
            elements: element.children(named: "fetchIndexElement").map { item in
                FetchIndexElement(
                    propertyName: item["property"], expression: item["expression"],
                    expressionType: item["expressionType"], type: item["type"] ?? "Binary",
                    isAscending: item["order"] != "descending", location: item.location)
            },
            location: element.location)
    }

    private mutating func configuration(_ element: XMLElementNode) -> Configuration {
        Configuration(
            name: required("name", of: element), usedWithCloudKit: element.flag("usedWithCloudKit"),
            memberEntityNames: element.children(named: "memberEntity").compactMap { $0["name"] },
            location: element.location)
    }

    private mutating func composite(_ element: XMLElementNode) -> CompositeDefinition {
        CompositeDefinition(
            name: required("name", of: element),
            attributes: element.children(named: "attribute").map { attribute($0) },
            location: element.location)
    }

    private func userInfo(_ element: XMLElementNode) -> [UserInfoEntry] {
        element.children(named: "entry").map { UserInfoEntry(key: $0["key"] ?? "", value: $0["value"] ?? "") }
    }

    // MARK: - Values

    private mutating func required(_ attribute: String, of element: XMLElementNode) -> String {
        if let value = element[attribute] { return value }
        diagnostics.emit(.missingAttribute(attribute, on: element.name, at: element.location))
        return ""
    }

    private mutating func integer(_ attribute: String, of element: XMLElementNode) -> Int? {
        guard let text = element[attribute] else { return nil }
        if let value = Int(text) { return value }
        diagnostics.emit(.invalidNumber(attribute, text, at: element.location))
        return nil
    }
}
