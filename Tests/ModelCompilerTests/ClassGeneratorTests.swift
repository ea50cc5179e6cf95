import Foundation
import ModelCompiler
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// `ClassGenerator`: which entities get which files, the Swift types of their properties, the
/// generated accessors, and every corpus model.
struct ClassGeneratorTests {
    /// A shop's model with every codegen setting and most attribute types.
    static let shop = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            <entity name="Product" representedClassName="$(PRODUCT_MODULE_NAME).Product" codeGenerationType="class">
                <attribute name="count" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="legacyCount" optional="YES" attributeType="Integer 32" usesScalarValueType="NO"/>
                <attribute name="oldStyle" optional="YES" attributeType="Integer 64"/>
                <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
                <attribute name="weight" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="isActive" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="name" attributeType="String"/>
                <attribute name="addedAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="photo" optional="YES" attributeType="Binary"/>
                <attribute name="sku" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="link" optional="YES" attributeType="URI"/>
                <attribute name="colors" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                <attribute name="extra" optional="YES" attributeType="Transformable"/>
                <attribute name="default" optional="YES" attributeType="String"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="products" inverseEntity="Shelf"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="products" inverseEntity="Tag"/>
            </entity>
            <entity name="Book" representedClassName="Book" parentEntity="Product" codeGenerationType="class">
                <attribute name="isbn" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Shelf" representedClassName="ShelfObject" codeGenerationType="category">
                <relationship name="products" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Product" inverseName="shelf" inverseEntity="Product"/>
            </entity>
            <entity name="Tag" representedClassName="Tag">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="products" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Product" inverseName="tags" inverseEntity="Product"/>
            </entity>
            <entity name="Note" representedClassName="NSManagedObject" codeGenerationType="class">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Loose" codeGenerationType="class">
                <attribute name="text" optional="YES" attributeType="String"/>
                <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note"/>
            </entity>
        </model>
        """

    static func generator() throws -> ClassGenerator {
        let (version, diagnostics) = ModelReader().readVersion(contents: Array(shop.utf8), name: "Shop", path: "contents")
        #expect(diagnostics.isEmpty)
        return ClassGenerator(try #require(version), modelName: "Shop.xcdatamodeld")
    }

    static func text(_ name: String) throws -> String {
        try #require(try generator().files().first { $0.name == name }).contents
    }

    @Test func eachEntityGetsTheFilesItsCodegenAsksFor() throws {
        #expect(try Self.generator().files().map(\.name) == [
            "Product+CoreDataClass.swift", "Product+CoreDataProperties.swift",
            "Book+CoreDataClass.swift", "Book+CoreDataProperties.swift",
            "ShelfObject+CoreDataProperties.swift",
            "Loose+CoreDataClass.swift", "Loose+CoreDataProperties.swift",
        ])
    }

    @Test func classesSubclassTheirParentEntitysClass() throws {
        #expect(try Self.text("Product+CoreDataClass.swift").contains("public class Product: ManagedObject {\n\n}\n"))
        #expect(try Self.text("Book+CoreDataClass.swift").contains("public class Book: Product {\n\n}\n"))
        // Only a root class declares Identifiable; a subclass inherits it.
        #expect(try Self.text("Product+CoreDataProperties.swift").contains("extension Product: Identifiable {"))
        #expect(try !Self.text("Book+CoreDataProperties.swift").contains("Identifiable"))
    }

    /// A class on ManagedObject itself, whose whole body is generated, declares it: no override can
    /// be in it. A subclass of another entity's class declares nothing (that class's overrides,
    /// were it written by hand, are its too).
    @Test func aRootClassDeclaresItsBodyGenerated() throws {
        #expect(try Self.text("Product+CoreDataClass.swift").hasSuffix("""
            public class Product: ManagedObject {

            }

            extension Product: GeneratedClassDefinition {
                public static var generatedClass: ManagedObject.Type { Product.self }
            }

            """))
        #expect(try !Self.text("Book+CoreDataClass.swift").contains("GeneratedClassDefinition"))
        #expect(try !Self.text("Product+CoreDataProperties.swift").contains("GeneratedClassDefinition"))
    }

    @Test func attributesHaveXcodesSwiftTypes() throws {
        let text = try Self.text("Product+CoreDataProperties.swift")
        let declared = text.split(separator: "\n").filter { $0.hasPrefix("    public var ") }.map { $0.dropFirst(15).dropLast(2) }
        #expect(declared == [
            "count: Int16", "legacyCount: NSNumber?", "oldStyle: NSNumber?", "price: Decimal?", "weight: Double",
            "isActive: Bool", "name: String?", "addedAt: Date?", "photo: Data?", "sku: UUID?", "link: URL?",
            "colors: [String]?", "extra: NSObject?", "`default`: String?", "shelf: ShelfObject?", "tags: NSSet?",
        ])
        #expect(text.contains("""
                public var count: Int16 {
                    get { managedValue(for: PropertyKeys.count, as: Int16.self) ?? 0 }
                    set { setValue(newValue, for: PropertyKeys.count) }
                }
            """))
        #expect(text.contains("get { managedValue(for: PropertyKeys.isActive, as: Bool.self) ?? false }"))
        // Each property's key is made once, in the extension, and finds the property by number.
        #expect(text.contains("""
                private enum PropertyKeys {
                    static let count = ManagedPropertyKey("count")
            """))
        #expect(text.contains("        static let `default` = ManagedPropertyKey(\"default\")\n"))
        #expect(text.contains("""
                @nonobjc public class func fetchRequest() -> FetchRequest<Product> {
                    return FetchRequest<Product>(entityName: "Product")
                }
            """))
    }

    @Test func toManysGetXcodesGeneratedAccessors() throws {
        let tags = try Self.text("Product+CoreDataProperties.swift")
        #expect(tags.contains("// MARK: Generated accessors for tags\nextension Product {\n"))
        #expect(tags.contains("""
                public func addToTags(_ value: Tag) {
                    addObject(value, toRelationship: "tags")
                }
            """))
        #expect(tags.contains("public func removeFromTags(_ values: NSSet) {\n        removeObjects(values, fromRelationship: \"tags\")"))
        let shelf = try Self.text("ShelfObject+CoreDataProperties.swift")
        let signatures = shelf.split(separator: "\n").filter { $0.hasPrefix("    public func ") }.map { $0.dropFirst(16).dropLast(2) }
        #expect(signatures == [
            "insertIntoProducts(_ value: Product, at idx: Int)", "removeFromProducts(at idx: Int)",
            "insertIntoProducts(_ values: [Product], at indexes: NSIndexSet)", "removeFromProducts(at indexes: NSIndexSet)",
            "replaceProducts(at idx: Int, with value: Product)", "replaceProducts(at indexes: NSIndexSet, with values: [Product])",
            "addToProducts(_ value: Product)", "removeFromProducts(_ value: Product)",
            "addToProducts(_ values: NSOrderedSet)", "removeFromProducts(_ values: NSOrderedSet)",
        ])
        #expect(shelf.contains("public var products: NSOrderedSet?"))
    }

    @Test func aDestinationWithoutAClassIsAManagedObject() throws {
        #expect(try Self.text("Loose+CoreDataProperties.swift").contains("public var note: ManagedObject? {"))
    }

    @Test func theSingleFileHoldsEverythingOnce() throws {
        let generator = try Self.generator()
        let single = generator.singleFile(named: "Shop")
        #expect(single.name == "Shop+CoreDataModel.swift")
        #expect(single.contents.components(separatedBy: "import ModelObjects").count == 2)
        for file in generator.files() {
            let body = try #require(file.contents.components(separatedBy: "import ModelObjects\n\n").last)
            #expect(single.contents.contains(body), "\(file.name)")
        }
    }

    /// Every version of every corpus model generates, with one file name per class and braces
    /// that balance; models with codegen get their classes.
    @Test(Corpus.required, arguments: Corpus.isAvailable ? Corpus.modelPaths() : [])
    func everyCorpusModelGenerates(_ relative: String) throws {
        let bundle = try #require(ModelSources.reader.read(at: Corpus.path(relative)).bundle, "\(relative) does not read")
        for version in bundle.versions {
            let generator = ClassGenerator(version, modelName: bundle.name)
            let files = generator.files()
            #expect(Set(files.map(\.name)).count == files.count, "\(version.name): two files with one name")
            let withCode = version.entities.filter { ["class", "category"].contains($0.codeGenerationType) }
            #expect(generator.classes.count <= withCode.count)
            for file in files + [generator.singleFile(named: bundle.name)] {
                #expect(file.contents.filter { $0 == "{" }.count == file.contents.filter { $0 == "}" }.count, "\(file.name)")
            }
        }
    }
}
