import Foundation
import ModelArchive
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Xcode 3 `elements` archives read into models: the values the real files hold, and a clear
/// message naming the class or key that cannot be read.
@Suite(Corpus.required)
struct Xcode3ModelReaderTests {
    static let recipes = "thepost__iPhoneCoreDataRecipesMigration/Recipes.xcdatamodeld/Recipes.xcdatamodel/elements"

    func elements(_ relative: String = recipes) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpus.path(relative))))
    }

    func read(_ bytes: [UInt8]) throws -> ModelVersion {
        try Xcode3ModelReader.read(elements: bytes, name: "Recipes", path: "elements").version
    }

    /// The values below are those the archive's stereotype settings hold (`XD_PAttK_…`, `XD_PRK_…`).
    @Test func theRecipesModelHoldsItsSettings() throws {
        let version = try read(try elements())
        #expect(version.versionIdentifier == "1.1")
        #expect(version.entities.map(\.name) == ["Image", "Ingredient", "Recipe", "RecipeType"])
        let recipe = try #require(version.entity(named: "Recipe"))
        #expect(recipe.representedClassName == "Recipe")
        #expect(recipe.attributes.map(\.name) == ["instructions", "name", "overview", "prepTime", "thumbnailImage"])
        let thumbnail = try #require(recipe.attributes.first { $0.name == "thumbnailImage" })
        #expect(thumbnail.type == .transformable)
        #expect(thumbnail.valueTransformerName == "ImageToDataTransformer")
        let ingredients = try #require(recipe.relationships.first { $0.name == "ingredients" })
        #expect(ingredients.isToMany && ingredients.destinationEntityName == "Ingredient" && ingredients.inverseName == "recipe")
        #expect(ingredients.deleteRule == .cascade)
        let type = try #require(recipe.relationships.first { $0.name == "type" })
        #expect(!type.isToMany && type.minCount == 1 && type.maxCount == 1 && type.isOptional)
        let ingredient = try #require(version.entity(named: "Ingredient"))
        let name = try #require(ingredient.attributes.first { $0.name == "name" })
        #expect(name.defaultValueString == "Ingredient Name" && !name.isOptional)
        #expect(ingredient.attributes.first { $0.name == "displayOrder" }?.type == .integer16)
        // Image's entity class is NSManagedObject, which the XML leaves out.
        #expect(version.entity(named: "Image")?.representedClassName == nil)
        // Every property's Sync Services resolution policy is a dictionary: dropped, and said so.
        let reading = try Xcode3ModelReader.read(elements: try elements(), name: "Recipes", path: "elements")
        #expect(reading.droppedUserInfoKeys == ["com.apple.syncservices.AutomaticResolutionPolicy"])
        #expect(name.userInfo == [UserInfoEntry(key: "com.apple.syncservices.ExcludeFromDataChangeAlert", value: "NO")])
    }

    @Test func anUnknownSettingIsNamedWithItsOwner() throws {
        let renamed = Data(try elements()).replacing(
            Data("XD_PAttK_valueTransformerName".utf8), with: Data("XD_PAttK_valueTransformerNamX".utf8))
        #expect { try read([UInt8](renamed)) } throws: {
            "\($0)".contains("unsupported key XD_PAttK_valueTransformerNamX of attribute 'thumbnailImage' of entity 'Recipe'")
        }
    }

    @Test func anUnknownPropertyClassIsNamedWithItsProperty() throws {
        let renamed = Data(try elements()).replacing(Data("XDPMRelationship".utf8), with: Data("XDPMFetchedPrope".utf8))
        #expect { try read([UInt8](renamed)) } throws: { "\($0)".contains("unsupported class XDPMFetchedPrope for property") }
    }

    @Test func aTruncatedArchiveIsAnErrorNotATrap() throws {
        let bytes = try elements()
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)) {
            #expect(throws: (any Error).self) { try read(Array(bytes.prefix(length))) }
        }
    }
}

extension Xcode3ModelReaderTests {
    /// An entity's superentity is its one generalization's `_general`: an `XDUMLGeneralizationImp`
    /// as mogenerator's Xcode 3 `test/test.xcdatamodel/elements` holds them (rentzsch/mogenerator
    /// at 21774d2: `Parent` and `Child` specialise `Human`; Xcode 4's conversion of that file at
    /// 6f34c08 writes `parentEntity="Human"`). Here Recipes' `Ingredient` is given such a
    /// generalization to `Recipe`, with the class chain and fields of the real one.
    @Test func aGeneralizationNamesTheSuperentity() throws {
        let root = try KeyedArchiveReader.unarchive(try elements())
        defer { root.releaseGraph() }
        let classes = try #require(root["_xd_rootPackage"]?.object?["XDBucketForClassesstorage"]?.object)
        let entities = zip(classes["NS.keys"]?.references ?? [], classes["NS.objects"]?.references ?? [])
        let ingredient = try #require(entities.first { $0.0.string == "Ingredient" }?.1.object)
        let recipe = try #require(entities.first { $0.0.string == "Recipe" }?.1.object)
        let generalization = ArchivedObject(
            ["XDUMLGeneralizationImp", "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"],
            fields: [("_name", .null), ("_specific", .object(ingredient)), ("_owner", .object(ingredient)),
                     ("_uniqueElementID", .integer(182514105)), ("_general", .object(recipe)), ("_visibility", .integer(0))])
        let bucket = try #require(ingredient["XDBucketForGeneralizationsstorage"]?.object)
        bucket["NS.objects"] = .references([.object(generalization)])
        let version = try read(KeyedArchiveWriter.archive(root))
        #expect(version.entity(named: "Ingredient")?.parentEntityName == "Recipe")
        #expect(version.entities.filter { $0.parentEntityName != nil }.map(\.name) == ["Ingredient"])

        // A generalization to something that is not an entity is named, not guessed at.
        generalization["_general"] = .string("Recipe")
        #expect { try read(KeyedArchiveWriter.archive(root)) } throws: {
            "\($0)".contains("unsupported XDBucketForGeneralizationsstorage of entity 'Ingredient' (1 × XDUMLGeneralizationImp)")
        }
    }
}

extension Xcode3ModelReaderTests {
    /// mogenerator's Xcode 3 test model (rentzsch/mogenerator `test/test.xcdatamodel` at 21774d2:
    /// inheritance through generalizations, five fetch request templates) and the `contents`
    /// Xcode 4 converted it into at 6f34c08, proposed for the corpus under these folders.
    static let mogeneratorXcode3 = "rentzsch__mogenerator@21774d2/test/test.xcdatamodel"
    static let mogeneratorXcode4 = "rentzsch__mogenerator@6f34c08/test/test.xcdatamodel"

    @Test(.enabled(
        if: FileManager.default.fileExists(atPath: Corpus.path("\(mogeneratorXcode3)/elements")),
        "mogenerator's Xcode 3 model is not in the corpus yet"))
    func mogeneratorsXcode3ModelArchivesAsItsXcode4Conversion() throws {
        let old = try Xcode3ModelReader.read(
            elements: elements("\(Self.mogeneratorXcode3)/elements"), name: "test", path: "elements").version
        let new = try #require(ModelReader().read(at: Corpus.path(Self.mogeneratorXcode4)).bundle?.versions.first)
        #expect(old.entities.compactMap(\.parentEntityName) == ["Human", "EntitySansCustomClass2", "EntitySansCustomClass2", "Human"])
        #expect(old.fetchRequests.map(\.name) == new.fetchRequests.map(\.name))
        #expect(ModelArchiver.archive(old) == ModelArchiver.archive(new))
    }
}
