import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import Testing
import _ModelTestSupport

/// The type mapc gives an entity mapping the editor leaves "Undefined" (Xcode writes that for
/// every mapping): for a same-named one, copy when the destination keeps every stored property
/// of the source with its version hash, only adding properties (richardpiazza/XcodeServer's
/// 1.0.0 → 1.1.0 `.cdm`, 23 of 23, new relationships; TranslationCatalog's, new attributes);
/// transform when one is dropped, renamed or changed, a relationship whose inverse was renamed
/// included (richardpiazza/CoreDataPlus's `Model_1_0_to_1_1.cdm`: Author, whose `books` became
/// `authoredBooks`, and Book, whose `author` now has that inverse, are both 5); transform for
/// different names (XcodeServer 1.1.0 → 2.0.0, 23 of 23).
struct MappingTypeTests {
    static func model(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="17709" systemVersion="20C69" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>
        """
    }

    static let author = #"<attribute name="name" attributeType="String"/>"#
    static let book = #"<attribute name="title" attributeType="String"/>"#

    /// Version 1: authors with their books. Each later version changes one thing.
    static let versions: [String: String] = [
        "V1": model("""
            <entity name="Author" representedClassName="Author" syncable="YES">\(author)
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
            <entity name="Book" representedClassName="Book" syncable="YES">\(book)
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>
            """),
        // Only additions: an attribute and a relationship with its inverse.
        "Added": model("""
            <entity name="Author" representedClassName="Author" syncable="YES">\(author)
                <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                <relationship name="edited" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="editor" inverseEntity="Book"/></entity>
            <entity name="Book" representedClassName="Book" syncable="YES">\(book)
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
                <relationship name="editor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="edited" inverseEntity="Author"/></entity>
            """),
        // `books` renamed: Author loses a property, Book's `author` gets another inverse name.
        "Renamed": model("""
            <entity name="Author" representedClassName="Author" syncable="YES">\(author)
                <relationship name="authoredBooks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
            <entity name="Book" representedClassName="Book" syncable="YES">\(book)
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="authoredBooks" inverseEntity="Author"/></entity>
            """),
        // An attribute of Book changes type; Author is as it was.
        "Retyped": model("""
            <entity name="Author" representedClassName="Author" syncable="YES">\(author)
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
            <entity name="Book" representedClassName="Book" syncable="YES"><attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>
            """),
    ]

    /// The types the `.xcmappingmodel` from `V1` to `destination` reads as, every mapping
    /// "Undefined" as Xcode leaves them, by mapping name.
    static func types(to destination: String) throws -> [String: EntityMappingType] {
        try withTemporaryDirectory { folder in
            for (name, contents) in versions {
                try writeFile("Library.xcdatamodeld/\(name).xcdatamodel/contents", contents, in: folder)
            }
            let bundle = try #require(ModelSources.reader.read(at: folder.appendingPathComponent("Library.xcdatamodeld").path).bundle)
            let source = VersionHasher(try #require(bundle.version(named: "V1"))).entityHashes()
            let target = VersionHasher(try #require(bundle.version(named: destination))).entityHashes()
            let mappings = ["Author", "Book"].map { name in
                EntityMapping(
                    name: "\(name)To\(name)", type: .undefined, sourceEntityName: name, destinationEntityName: name,
                    sourceEntityVersionHash: source[name], destinationEntityVersionHash: target[name],
                    sourceExpression: SourceExpression(entityName: name))
            }
            let compiled = folder.appendingPathComponent("Mapping.cdm")
            try Data(try MappingModelArchiver.archive(MappingModel(name: "Mapping", path: compiled.path, entityMappings: mappings))).write(to: compiled)
            let written = try #require(try MappingDecompilation.decompile(mappingAt: compiled.path, into: folder.path, bundle: bundle).outputPath)
            let xml = try String(contentsOfFile: written + "/xcmapping.xml", encoding: .utf8)
            #expect(xml.components(separatedBy: ">Undefined<").count == 3, "both mappings are written Undefined, as Xcode writes them")
            let read = try #require(MappingCompilation.read(at: written).model)
            return Dictionary(uniqueKeysWithValues: read.entityMappings.map { ($0.name, $0.type) })
        }
    }

    @Test func onlyAddedPropertiesMakeCopies() throws {
        #expect(try Self.types(to: "Added") == ["AuthorToAuthor": .copy, "BookToBook": .copy])
    }

    @Test func aRenamedRelationshipMakesTransformsOfBothSides() throws {
        #expect(try Self.types(to: "Renamed") == ["AuthorToAuthor": .transform, "BookToBook": .transform])
    }

    @Test func aChangedAttributeMakesATransformOfItsEntityOnly() throws {
        #expect(try Self.types(to: "Retyped") == ["AuthorToAuthor": .copy, "BookToBook": .transform])
    }
}
