import ModelCompiler
import ModelXML
import Testing

/// `ClassGenerator` with the `coreData` API writes Xcode's own text, `@objc(…)` lines left out
/// and `@Managed`/`@ManagedAccessor` for `@NSManaged`. The expected text follows files Xcode
/// generated (for example `Insert+CoreDataProperties.swift` in davjohnsonGH/insertApp and
/// `User+CoreDataProperties.swift` in MrOcumare/1111: `import CoreData`, `@nonobjc public class
/// func fetchRequest() -> NSFetchRequest<…>`, one `@NSManaged public var` a line, a blank line
/// before the closing brace, the "Generated accessors" extension a blank line between each).
struct CoreDataGeneratedClassTests {
    static func text(_ name: String) throws -> String {
        let (version, _) = ModelReader().readVersion(contents: Array(ClassGeneratorTests.shop.utf8), name: "Shop", path: "contents")
        let generator = ClassGenerator(try #require(version), modelName: "Shop.xcdatamodeld", api: .coreData)
        return try #require(generator.files().first { $0.name == name }).contents
    }

    @Test func theClassFileSubclassesNSManagedObject() throws {
        let text = try Self.text("Product+CoreDataClass.swift")
        #expect(text.contains("\nimport Foundation\nimport CoreData\n"))
        // Xcode's class, then the declaration that its whole body is generated.
        #expect(text.contains("\npublic class Product: NSManagedObject {\n\n}\n"))
        #expect(text.hasSuffix("""
            extension Product: GeneratedClassDefinition {
                public static var generatedClass: NSManagedObject.Type { Product.self }
            }

            """))
    }

    @Test func propertiesAreXcodesLinesWithManaged() throws {
        let text = try Self.text("Product+CoreDataProperties.swift")
        #expect(text.contains("""
            extension Product {

                @nonobjc public class func fetchRequest() -> NSFetchRequest<Product> {
                    return NSFetchRequest<Product>(entityName: "Product")
                }

                @Managed public var count: Int16
                @Managed public var legacyCount: NSNumber?
                @Managed public var oldStyle: NSNumber?
                @Managed public var price: NSDecimalNumber?
                @Managed public var weight: Double
                @Managed public var isActive: Bool
                @Managed public var name: String?
                @Managed public var addedAt: Date?
                @Managed public var photo: Data?
                @Managed public var sku: UUID?
                @Managed public var link: URL?
                @Managed public var colors: [String]?
                @Managed public var extra: NSObject?
                @Managed public var `default`: String?
                @Managed public var shelf: ShelfObject?
                @Managed public var tags: NSSet?

            }

            // MARK: Generated accessors for tags
            extension Product {

                @ManagedAccessor public func addToTags(_ value: Tag)

                @ManagedAccessor public func removeFromTags(_ value: Tag)

                @ManagedAccessor public func addToTags(_ values: NSSet)

                @ManagedAccessor public func removeFromTags(_ values: NSSet)

            }

            extension Product: Identifiable {

            }

            """))
        #expect(!text.contains("@objc"))
    }

    @Test func orderedAccessorsAreXcodes() throws {
        let text = try Self.text("ShelfObject+CoreDataProperties.swift")
        let signatures = text.split(separator: "\n").filter { $0.hasPrefix("    @ManagedAccessor public func ") }.map { $0.dropFirst(33) }
        #expect(signatures == [
            "insertIntoProducts(_ value: Product, at idx: Int)", "removeFromProducts(at idx: Int)",
            "insertIntoProducts(_ values: [Product], at indexes: NSIndexSet)", "removeFromProducts(at indexes: NSIndexSet)",
            "replaceProducts(at idx: Int, with value: Product)", "replaceProducts(at indexes: NSIndexSet, with values: [Product])",
            "addToProducts(_ value: Product)", "removeFromProducts(_ value: Product)",
            "addToProducts(_ values: NSOrderedSet)", "removeFromProducts(_ values: NSOrderedSet)",
        ])
        #expect(try Self.text("Loose+CoreDataProperties.swift").contains("@Managed public var note: NSManagedObject?\n"))
    }
}
