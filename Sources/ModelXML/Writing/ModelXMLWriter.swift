import ModelSchema

/// Writes a model version as the `contents` XML Xcode writes: the same elements, attribute
/// order and spelling, booleans only when true, entities and properties sorted as Xcode sorts.
///
/// Reading what it writes gives back the same model, which the round-trip tests check on
/// every model of the corpus.
public enum ModelXMLWriter {
    public static func contents(of version: ModelVersion) -> String {
        var xml = XMLText()
        xml.line(0, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>")
        let document = version.document
        var attributes: [(String, String?)] = [
            ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
            ("lastSavedToolsVersion", document.lastSavedToolsVersion ?? "22758"),
            ("systemVersion", document.systemVersion ?? "23E224"),
            ("minimumToolsVersion", document.minimumToolsVersion ?? "Automatic"),
        ]
        attributes += document.legacyAttributes.map { ($0.key, $0.value) }
        attributes += [
            ("sourceLanguage", document.sourceLanguage),
            ("userDefinedModelVersionIdentifier", version.versionIdentifier),
            ("usedWithCloudKit", flag(document.usedWithCloudKit)),
            ("usedWithSwiftData", flag(document.usedWithSwiftData)),
        ]
        let hasChildren = !version.entities.isEmpty || !version.fetchRequests.isEmpty
            || !version.configurations.isEmpty || !version.composites.isEmpty
        xml.open(0, "model", attributes, empty: !hasChildren)
        guard hasChildren else { return xml.textWithoutFinalNewline }
        for entity in version.entities.sorted(by: { FinderOrder.precedes($0.name, $1.name) }) {
            write(entity, into: &xml)
        }
        for request in version.fetchRequests {
            xml.open(1, "fetchRequest", fetchRequestAttributes(request), empty: true)
        }
        for configuration in version.configurations {
            xml.open(
                1, "configuration",
                [("name", configuration.name), ("usedWithCloudKit", flag(configuration.usedWithCloudKit))],
                empty: configuration.memberEntityNames.isEmpty)
            guard !configuration.memberEntityNames.isEmpty else { continue }
            for member in configuration.memberEntityNames {
                xml.open(2, "memberEntity", [("name", member)], empty: true)
            }
            xml.close(1, "configuration")
        }
        for composite in version.composites {
            xml.open(1, "composite", [("name", composite.name)], empty: composite.attributes.isEmpty)
            guard !composite.attributes.isEmpty else { continue }
            for attribute in composite.attributes { write(attribute, depth: 2, into: &xml) }
            xml.close(1, "composite")
        }
        xml.close(0, "model")
        return xml.textWithoutFinalNewline
    }

    // MARK: - Entities

    private static func write(_ entity: Entity, into xml: inout XMLText) {
        let attributes: [(String, String?)] = [
            ("name", entity.name), ("representedClassName", entity.representedClassName),
            ("parentEntity", entity.parentEntityName), ("isAbstract", flag(entity.isAbstract)),
            ("elementID", entity.renamingIdentifier), ("versionHashModifier", entity.versionHashModifier),
            ("syncable", flag(entity.isSyncable)), ("codeGenerationType", entity.codeGenerationType),
        ]
        let hasChildren = !entity.attributes.isEmpty || !entity.relationships.isEmpty
            || !entity.fetchedProperties.isEmpty || !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty
            || !entity.uniquenessConstraints.isEmpty || entity.userInfo != nil
        xml.open(1, "entity", attributes, empty: !hasChildren)
        guard hasChildren else { return }
        for attribute in entity.attributes.sorted(by: { FinderOrder.precedes($0.name, $1.name) }) {
            write(attribute, depth: 2, into: &xml)
        }
        for relationship in entity.relationships.sorted(by: { FinderOrder.precedes($0.name, $1.name) }) {
            write(relationship, into: &xml)
        }
        for fetched in entity.fetchedProperties {
            xml.open(2, "fetchedProperty", [("name", fetched.name), ("optional", flag(fetched.isOptional)), ("syncable", flag(fetched.isSyncable))], empty: false)
            xml.open(3, "fetchRequest", fetchRequestAttributes(fetched.fetchRequest), empty: true)
            writeUserInfo(fetched.userInfo, depth: 3, into: &xml)
            xml.close(2, "fetchedProperty")
        }
        for index in entity.fetchIndexes {
            xml.open(2, "fetchIndex", [("name", index.name), ("partialIndexPredicate", index.partialIndexPredicate)], empty: index.elements.isEmpty)
            guard !index.elements.isEmpty else { continue }
            for element in index.elements {
                xml.open(
                    3, "fetchIndexElement",
                    [("property", element.propertyName), ("expression", element.expression),
                     ("expressionType", element.expressionType), ("type", element.type),
                     ("order", element.isAscending ? "ascending" : "descending")], empty: true)
            }
            xml.close(2, "fetchIndex")
        }
        writeNameLists(entity.compoundIndexes, outer: "compoundIndexes", inner: "compoundIndex", item: "index", into: &xml)
        writeNameLists(entity.uniquenessConstraints, outer: "uniquenessConstraints", inner: "uniquenessConstraint", item: "constraint", into: &xml)
        writeUserInfo(entity.userInfo, depth: 2, into: &xml)
        xml.close(1, "entity")
    }

    private static func writeNameLists(_ lists: [[String]], outer: String, inner: String, item: String, into xml: inout XMLText) {
        guard !lists.isEmpty else { return }
        xml.open(2, outer, [], empty: false)
        for list in lists {
            xml.open(3, inner, [], empty: list.isEmpty)
            guard !list.isEmpty else { continue }
            for name in list { xml.open(4, item, [("value", name)], empty: true) }
            xml.close(3, inner)
        }
        xml.close(2, outer)
    }

    // MARK: - Properties

    private static func write(_ attribute: Attribute, depth: Int, into xml: inout XMLText) {
        let attributes: [(String, String?)] = [
            ("name", attribute.name), ("optional", flag(attribute.isOptional)), ("transient", flag(attribute.isTransient)),
            ("attributeType", attribute.type.xmlName), ("minValueString", attribute.minValueString),
            ("maxValueString", attribute.maxValueString), ("minDateTimeInterval", attribute.minDateTimeInterval),
            ("maxDateTimeInterval", attribute.maxDateTimeInterval), ("defaultValueString", attribute.defaultValueString),
            ("defaultDateTimeInterval", attribute.defaultDateTimeInterval),
            ("usesScalarValueType", attribute.usesScalarValueType.map { $0 ? "YES" : "NO" }),
            ("regularExpressionString", attribute.regularExpressionString),
            ("valueTransformerName", attribute.valueTransformerName), ("customClassName", attribute.customClassName),
            ("allowsExternalBinaryDataStorage", flag(attribute.allowsExternalBinaryDataStorage)),
            ("indexed", flag(attribute.isIndexed)), ("spotlightIndexingEnabled", flag(attribute.isIndexedBySpotlight)),
            ("storedInTruthFile", flag(attribute.isStoredInTruthFile)),
            ("allowsCloudEncryption", flag(attribute.allowsCloudEncryption)),
            ("preserveAfterDeletion", flag(attribute.preservesValueInHistoryOnDeletion)),
            ("derived", flag(attribute.isDerived)), ("derivationExpression", attribute.derivationExpression),
            ("composite", attribute.compositeName), ("versionHashModifier", attribute.versionHashModifier),
            ("elementID", attribute.renamingIdentifier), ("syncable", flag(attribute.isSyncable)),
        ]
        xml.open(depth, "attribute", attributes, empty: attribute.userInfo == nil)
        guard attribute.userInfo != nil else { return }
        writeUserInfo(attribute.userInfo, depth: depth + 1, into: &xml)
        xml.close(depth, "attribute")
    }

    private static func write(_ relationship: Relationship, into xml: inout XMLText) {
        let attributes: [(String, String?)] = [
            ("name", relationship.name), ("optional", flag(relationship.isOptional)),
            ("transient", flag(relationship.isTransient)), ("toMany", flag(relationship.isToMany)),
            ("ordered", flag(relationship.isOrdered)), ("minCount", relationship.minCount.map(String.init)),
            ("maxCount", relationship.maxCount.map(String.init)), ("deletionRule", relationship.deleteRule.xmlName),
            ("destinationEntity", relationship.destinationEntityName), ("inverseName", relationship.inverseName),
            ("inverseEntity", relationship.inverseEntityName), ("indexed", flag(relationship.isIndexed)),
            ("versionHashModifier", relationship.versionHashModifier), ("elementID", relationship.renamingIdentifier),
            ("syncable", flag(relationship.isSyncable)),
        ]
        xml.open(2, "relationship", attributes, empty: relationship.userInfo == nil)
        guard relationship.userInfo != nil else { return }
        writeUserInfo(relationship.userInfo, depth: 3, into: &xml)
        xml.close(2, "relationship")
    }

    private static func fetchRequestAttributes(_ request: FetchRequestTemplate) -> [(String, String?)] {
        [
            ("name", request.name), ("entity", request.entityName), ("predicateString", request.predicateString),
            ("fetchLimit", request.fetchLimit.map(String.init)), ("fetchBatchSize", request.fetchBatchSize.map(String.init)),
            ("resultType", request.resultType.map(String.init)), ("includeSubentities", flag(request.includesSubentities)),
            ("includePropertyValues", flag(request.includesPropertyValues)),
            ("includesPendingChanges", flag(request.includesPendingChanges)),
            ("returnObjectsAsFaults", flag(request.returnsObjectsAsFaults)),
            ("returnDistinctResults", flag(request.returnsDistinctResults)),
        ]
    }

    private static func writeUserInfo(_ userInfo: UserInfo, depth: Int, into xml: inout XMLText) {
        guard let userInfo else { return }
        xml.open(depth, "userInfo", [], empty: userInfo.isEmpty)
        guard !userInfo.isEmpty else { return }
        for entry in userInfo { xml.open(depth + 1, "entry", [("key", entry.key), ("value", entry.value)], empty: true) }
        xml.close(depth, "userInfo")
    }

    private static func flag(_ value: Bool) -> String? { value ? "YES" : nil }
}

/// Indented XML text: four spaces per level, attributes escaped, absent values left out.
struct XMLText {
    private(set) var text = ""

    /// Xcode ends `contents` without a newline.
    var textWithoutFinalNewline: String { text.hasSuffix("\n") ? String(text.dropLast()) : text }

    mutating func line(_ depth: Int, _ content: String) {
        text += String(repeating: "    ", count: depth) + content + "\n"
    }

    mutating func open(_ depth: Int, _ name: String, _ attributes: [(String, String?)], empty: Bool) {
        var tag = "<" + name
        for case (let key, let value?) in attributes {
            tag += " \(key)=\"\(Self.escape(value))\""
        }
        line(depth, tag + (empty ? "/>" : ">"))
    }

    mutating func close(_ depth: Int, _ name: String) {
        line(depth, "</\(name)>")
    }

    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default: out.append(character)
            }
        }
        return out
    }
}
