import Foundation
import ModelArchive
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// momc writes a transformable's Custom Class (`customClassName`) into the `.mom` as
/// `NSAttributeValueClassName`, as written, next to the transformer's name; a transformable
/// without one has none (Documentation/XcodeEras.md lists the files that show it).
@Suite(Corpus.required)
struct TransformableArchiveTests {
    static let memoryBread = "sweethoneybee__MemoryBread/MemoryBread/Models/CoreData/MemoryBread.xcdatamodeld"
    static let wire = "wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld"

    /// Each transformable of `version` as archived: attribute name → (`NSAttributeValueClassName`,
    /// `NSValueTransformerName`), entity by entity.
    static func archivedTransformables(_ version: ModelVersion) throws -> [String: [String: (String?, String?)]] {
        let root = try KeyedArchiveReader.unarchive(ModelArchiver.archive(version))
        defer { root.releaseGraph() }
        let entities = try #require(root["NSEntities"]?.object)
        var result = [String: [String: (String?, String?)]]()
        for entity in version.entities {
            let archived = try #require(zip(entities["NS.keys"]?.references ?? [], entities["NS.objects"]?.references ?? [])
                .first { $0.0.string == entity.name }?.1.object)
            let properties = try #require(archived["NSProperties"]?.object)
            for attribute in entity.attributes where attribute.type == .transformable {
                let object = try #require(zip(properties["NS.keys"]?.references ?? [], properties["NS.objects"]?.references ?? [])
                    .first { $0.0.string == attribute.name }?.1.object)
                result[entity.name, default: [:]][attribute.name] =
                    (object["NSAttributeValueClassName"]?.string, object["NSValueTransformerName"]?.string)
            }
        }
        return result
    }

    /// Objective-C class names. wireapp/wire-ios-data-model at bf5946e commits stores that its
    /// app made with each Xcode-compiled model version (`Tests/Resources/store2-<version>.wiredatabase`);
    /// Core Data copied each loaded model into the store's `Z_MODELCACHE`. In `store2-63-0`
    /// (Core Data 866, iOS 12) `User.extendedMetadata`, whose source in `zmessaging2.63.0`
    /// reads `attributeType="Transformable" customClassName="NSArray"`, has
    /// `NSAttributeValueClassName` = `NSArray`, and the seven `modifiedKeys`/`accessModeStrings`
    /// transformables without a custom class have none; in `store2-80-0` (Core Data 866) and
    /// `store2-82-0` (Core Data 977, iOS 13) `Message.linkAttachments` (`customClassName="NSArray"`)
    /// has `NSArray`. Every other store there agrees, but `store2-65-0`, whose cache has a
    /// `linkAttachments` (`NSArray`) that the committed `zmessaging2.65.0` no longer has.
    @Test func objectiveCCustomClassesAreArchivedAsValueClasses() throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(Self.wire)).bundle)
        let expected: [(version: String, entity: String, attribute: String)] = [
            ("zmessaging2.63.0", "User", "extendedMetadata"),
            ("zmessaging2.80.0", "Message", "linkAttachments"),
            ("zmessaging2.82.0", "Message", "linkAttachments"),
        ]
        for (name, entityName, attributeName) in expected {
            let version = try #require(bundle.versions.first { $0.name == name })
            let archived = try Self.archivedTransformables(version)
            #expect(archived[entityName]?[attributeName]?.0 == "NSArray", "\(name) \(entityName).\(attributeName)")
            // Transformables without a custom class keep a nil class name.
            for (entity, attributes) in archived {
                for (attribute, (className, _)) in attributes where attribute != attributeName {
                    #expect(className == nil, "\(name) \(entity).\(attribute)")
                }
            }
        }
    }

    /// Swift type spellings are written as they are: issue 36 reports a held-out `.momd` that
    /// Xcode's momc compiled from a model last saved by tools version 18154 (the Xcode 12.5 era),
    /// committed next to its source, whose `NSAttributeValueClassName` is `[String]` and
    /// `[String: Any]` for the transformables with exactly that `customClassName`. MemoryBread's
    /// model gives its transformables `[String]`, `[Int]` and `[[Int]]`.
    @Test func swiftTypeSpellingsAreArchivedAsWritten() throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(Self.memoryBread)).bundle)
        var checked = [String]()
        for version in bundle.versions {
            let archived = try Self.archivedTransformables(version)
            for entity in version.entities {
                for attribute in entity.attributes where attribute.type == .transformable {
                    let (className, transformer) = try #require(archived[entity.name]?[attribute.name])
                    #expect(className == attribute.customClassName, "\(version.name) \(attribute.name)")
                    #expect(transformer == attribute.valueTransformerName, "\(version.name) \(attribute.name)")
                    checked.append(attribute.customClassName ?? "")
                }
            }
        }
        #expect(Set(checked) == ["[String]", "[Int]", "[[Int]]"])
    }

    /// The two spellings the held-out file shows, and an empty Custom Class, which names nothing.
    @Test func heldOutSpellingsAndAnEmptyClass() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="18154" systemVersion="20F71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="empty" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName=""/>
                    <attribute name="info" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String: Any]"/>
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                </entity>
            </model>
            """
        let version = try #require(ModelReader().readVersion(contents: Array(xml.utf8), name: "Model", path: "contents").0)
        let archived = try Self.archivedTransformables(version)
        #expect(archived["Item"]?["tags"]?.0 == "[String]")
        #expect(archived["Item"]?["info"]?.0 == "[String: Any]")
        #expect(archived["Item"]?["empty"]?.0 == nil)
        // Decompiling gives the class back.
        let decoded = try ModelUnarchiver.version(from: ModelArchiver.archive(version), name: "Model", path: "Model.mom")
        let item = try #require(decoded.entities.first)
        #expect(item.attributes.map(\.customClassName) == [nil, "[String: Any]", "[String]"])
    }
}
