import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// The class of the `Late` entity, used as a type nowhere but in a batch insert's handler.
final class LateItem: ManagedObject {}

/// The class of the `Qualified` entity, which the model names with its module.
final class QualifiedItem: ManagedObject {}

/// The class an entity's objects get before any code used it as a type: a batch insert's handler
/// casts the object it is handed to the entity's class, as Apple's sample code does
/// (`NSBatchInsertRequest(entity:managedObjectHandler:)`: "a closure that inserts data into the
/// managed entity", handed an `NSManagedObject` of the entity's class, which Core Data finds by name).
struct BatchInsertClassTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Late" representedClassName="LateItem" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Qualified" representedClassName="ModelObjectsTests.QualifiedItem" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Ghost" representedClassName="GhostItem" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// A loaded container of the model on a new store in `folder`.
    static func container(in folder: URL) async throws -> PersistentContainer {
        let model = folder.appendingPathComponent("Late.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Self.model.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try await ContextTestSupport.container(model.path, in: folder)
    }

    /// The handler is handed `LateItem`s though no code used the class before: the request
    /// knows its caller's module. (Before, it was handed `ManagedObject`s, and the `as!` apps
    /// write there crashed the process: "Could not cast value of type ManagedObject".)
    @Test func aHandlerGetsObjectsOfTheEntitysClassBeforeItWasUsed() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var names = ["Ada", "Grace"]
            var handed = [String]()
            let request = BatchInsertRequest(entityName: "Late", managedObjectHandler: { object in
                handed.append(String(describing: type(of: object)))
                guard let item = object as? LateItem, let name = names.popLast() else { return true }
                item.setValue(name, forKey: "name")
                return false
            })
            _ = try context.execute(request)
            #expect(handed == ["LateItem", "LateItem", "LateItem"])
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZNAME FROM ZLATE ORDER BY ZNAME") == ["Ada", "Grace"])
    }

    /// A class the model names with its module (`Module.Class`, as Xcode writes for "Current
    /// Product Module") is found as written: a fetch's objects are of it before it was used.
    @Test func aQualifiedClassNameIsFoundAsWritten() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.execute(BatchInsertRequest(entityName: "Qualified", objects: [["name": "Ada"]]))
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Qualified"))
            #expect(objects.count == 1 && objects.allSatisfy { $0 is QualifiedItem })
        }
    }

    /// A class the model names but the process lacks: the handler is never called with an object
    /// it could not cast; the request fails with 134030 and inserts nothing.
    @Test func aMissingClassFailsTheRequestInsteadOfHandingAnObject() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        context.performAndWait {
            var calls = 0
            let request = BatchInsertRequest(entityName: "Ghost", managedObjectHandler: { _ in
                calls += 1
                return true
            })
            let error = #expect(throws: (any Error).self) { try context.execute(request) }
            #expect((error as? NSError)?.code == 134030 && calls == 0)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT COUNT(*) FROM ZGHOST") == ["0"])
    }
}
