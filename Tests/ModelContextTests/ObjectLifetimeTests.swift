import Foundation
import GRDB
import ModelContext
import ModelStack
import Testing
import _ModelTestSupport

/// How long objects live and what they keep: the context's table holds them unretained (an
/// object the app lets go leaves it, and is read again as a new instance), a context that goes
/// leaves its objects without one, unsaved values live in row slots and transient values outlive
/// a save, and integers keep every digit on their way to the column.
struct ObjectLifetimeTests {
    @Test func anObjectTheAppLetsGoLeavesTheContextAndIsReadAgain() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        let kept = try context.performAndWait {
            let id: ManagedObjectID = try {
                let object = ManagedObject(entity: Self.entity(container), insertInto: context)
                object.setValue(Int64(7), forKey: "count")
                try context.save()
                #expect(context.registeredObject(for: object.objectID) === object)
                return object.objectID
            }()
            // Saved and unchanged, held by nobody: gone from the table.
            #expect(context.registeredObject(for: id) == nil)
            #expect(context.registeredObjects.isEmpty)
            let again = try context.existingObject(with: id)
            #expect(again.value(forKey: "count") as? Int64 == 7)
            #expect(context.registeredObject(for: id) === again)

            // Retaining registered objects keeps them; turning it off lets them go.
            context.retainsRegisteredObjects = true
            _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Counter"))
            #expect(context.registeredObjects.count == 1)
            context.retainsRegisteredObjects = false
            #expect(context.registeredObject(for: id) === again)
            return again
        }
        // An ID of another store names nothing here, though its entity and key are those of an object here.
        let other = try await Self.container(in: folder.url.appendingPathComponent("other"))
        let foreign: ManagedObjectID = try other.viewContext.performAndWait {
            let object = ManagedObject(entity: Self.entity(other), insertInto: other.viewContext)
            try other.viewContext.save()
            return object.objectID
        }
        context.performAndWait {
            #expect(foreign.primaryKey == kept.objectID.primaryKey)
            #expect(context.registeredObject(for: foreign) == nil)
            #expect(context.registeredObject(for: kept.objectID) === kept)
        }
    }

    @Test func objectsOutliveTheirContextWithoutIt() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        var context: ManagedObjectContext? = container.newBackgroundContext()
        let object = try context!.performAndWait {
            let object = ManagedObject(entity: Self.entity(container), insertInto: context)
            try context!.save()
            return object
        }
        weak let gone = context
        context = nil
        #expect(gone == nil)
        #expect(object.managedObjectContext == nil)
    }

    @Test func transientValuesAndLargeIntegersSurviveASave() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        let large = Int64.max - 1  // not a double: 2^63 - 2 has no exact one
        let id = try context.performAndWait {
            let object = ManagedObject(entity: Self.entity(container), insertInto: context)
            #expect(object.value(forKey: "label") as? String == "new")
            #expect(object.changedValues()["count"] as? Int64 == 0)
            object.setValue(large, forKey: "count")
            object.setValue("kept", forKey: "label")
            #expect(object.changedValues()["label"] as? String == "kept")
            try context.save()
            #expect(object.value(forKey: "label") as? String == "kept")
            #expect(object.changedValues().isEmpty)
            return object.objectID
        }
        let stored = try await container.database!.read { try Int64.fetchOne($0, sql: "SELECT ZCOUNT FROM ZCOUNTER") }
        #expect(stored == large)
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let object = try reader.existingObject(with: id)
            #expect(object.value(forKey: "count") as? Int64 == large)
            #expect(object.value(forKey: "label") == nil)
        }
    }

    static func entity(_ container: PersistentContainer) -> EntityDescription {
        container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Counter"]!
    }

    static func container(in folder: URL) async throws -> PersistentContainer {
        let bundle = folder.appendingPathComponent("Counters.xcdatamodeld")
        let version = bundle.appendingPathComponent("Counters.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Counter" representedClassName="Counter" syncable="YES" codeGenerationType="class">
                    <attribute name="count" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="label" optional="YES" transient="YES" attributeType="String" defaultValueString="new"/>
                </entity>
            </model>
            """.utf8).write(to: version.appendingPathComponent("contents"))
        let container = try PersistentContainer(name: "Counters", model: bundle)
        container.persistentStoreDescriptions = [StoreDescription(url: folder.appendingPathComponent("Counters.sqlite"))]
        try await container.loadPersistentStores()
        return container
    }
}
