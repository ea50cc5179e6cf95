import Foundation
import ModelArchive
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// A transformable's `customClassName` is taken for code generation only: the `.mom` leaves
/// `NSAttributeValueClassName` null and keeps the transformer's name (FORMATS.md §2; the
/// evidence and its limits are in Documentation/XcodeEras.md). MemoryBread's real model gives
/// its transformables Swift type spellings (`[String]`, `[Int]`, `[[Int]]`), archived so too.
@Suite(Corpus.required)
struct TransformableArchiveTests {
    static let model = "sweethoneybee__MemoryBread/MemoryBread/Models/CoreData/MemoryBread.xcdatamodeld"

    @Test func swiftTypeSpellingsAreNotArchivedAsValueClasses() throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(Self.model)).bundle)
        var checked = [String]()
        for version in bundle.versions {
            let root = try KeyedArchiveReader.unarchive(ModelArchiver.archive(version))
            defer { root.releaseGraph() }
            let entities = try #require(root["NSEntities"]?.object)
            for entity in version.entities {
                let archived = try #require(zip(entities["NS.keys"]?.references ?? [], entities["NS.objects"]?.references ?? [])
                    .first { $0.0.string == entity.name }?.1.object)
                let properties = try #require(archived["NSProperties"]?.object)
                for attribute in entity.attributes where attribute.type == .transformable && attribute.customClassName?.hasPrefix("[") == true {
                    let object = try #require(zip(properties["NS.keys"]?.references ?? [], properties["NS.objects"]?.references ?? [])
                        .first { $0.0.string == attribute.name }?.1.object)
                    #expect(object["NSAttributeValueClassName"]?.string == nil, "\(version.name) \(attribute.name)")
                    #expect(object["NSValueTransformerName"]?.string == attribute.valueTransformerName, "\(version.name) \(attribute.name)")
                    checked.append(attribute.customClassName ?? "")
                }
            }
        }
        #expect(Set(checked) == ["[String]", "[Int]", "[[Int]]"])
    }
}
