import Foundation
import ModelArchive
import ModelSchema
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
