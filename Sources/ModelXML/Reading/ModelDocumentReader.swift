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
        // Sized up front: each doubling of an array of attributes would copy every attribute.
        var attributeCount = 0, relationshipCount = 0
        for child in element.children {
            if child.name == "attribute" { attributeCount += 1 } else if child.name == "relationship" { relationshipCount += 1 }
        }
        entity.attributes.reserveCapacity(attributeCount)
        entity.relationships.reserveCapacity(relationshipCount)
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
        // One pass over the XML attributes instead of one linear search per property.
        var a = Attribute(name: "", type: .undefined, location: element.location)
        var hasName = false
        for (key, value) in element.attributes {
            let yes = value == "YES"
            switch key {
            case "name": a.name = value; hasName = true
            case "attributeType":
                if let known = AttributeType(xmlName: value) {
                    a.type = known
                } else {
                    diagnostics.emit(.unknownAttributeType(value, at: element.location))
                }
            case "optional": a.isOptional = yes
            case "transient": a.isTransient = yes
            case "defaultValueString": a.defaultValueString = value
            case "defaultDateTimeInterval": a.defaultDateTimeInterval = value
            case "minValueString": a.minValueString = value
            case "maxValueString": a.maxValueString = value
            case "minDateTimeInterval": a.minDateTimeInterval = value
            case "maxDateTimeInterval": a.maxDateTimeInterval = value
            case "regularExpressionString": a.regularExpressionString = value
            case "usesScalarValueType": a.usesScalarValueType = yes
            case "customClassName": a.customClassName = value
            case "valueTransformerName": a.valueTransformerName = value
            case "allowsExternalBinaryDataStorage": a.allowsExternalBinaryDataStorage = yes
            case "indexed": a.isIndexed = yes
            case "spotlightIndexingEnabled": a.isIndexedBySpotlight = yes
            case "storedInTruthFile": a.isStoredInTruthFile = yes
            case "allowsCloudEncryption": a.allowsCloudEncryption = yes
            case "preserveAfterDeletion": a.preservesValueInHistoryOnDeletion = yes
            case "syncable": a.isSyncable = yes
            case "versionHashModifier": a.versionHashModifier = value
            case "elementID": a.renamingIdentifier = value
            case "derived": a.isDerived = yes
            case "derivationExpression": a.derivationExpression = value
            case "composite": a.compositeName = value
            default: break
            }
        }
        if !hasName { diagnostics.emit(.missingAttribute("name", on: element.name, at: element.location)) }
        if !element.children.isEmpty { a.userInfo = element.firstChild(named: "userInfo").map(userInfo) }
        return a
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
