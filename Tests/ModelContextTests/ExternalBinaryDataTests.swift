import Foundation
import GRDB
import ModelContext
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// Attributes that allow external storage are written as Core Data writes them (the forms wire's
/// stores hold): a marker byte 0x01 and the bytes inline, or past the threshold 0x02, the name of
/// a file in `.<Store>_SUPPORT/_EXTERNAL_DATA/` and a NUL; files follow their values through
/// updates, deletes and failed saves.
struct ExternalBinaryDataTests {
    @Test func smallValuesStayInlineAndLargeOnesGoToFilesThatFollowTheirValues() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let external = folder.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        let small = Data(repeating: 7, count: 1_000)
        let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait {
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Photo"]!
            let thumbnail = ManagedObject(entity: entity, insertInto: context)
            thumbnail.setValue(small, forKey: "image")
            let original = ManagedObject(entity: entity, insertInto: context)
            original.setValue(large, forKey: "image")
            try context.save()
            return (thumbnail.objectID, original.objectID)
        }
        let columns = try await container.database!.read { db in
            try Data.fetchAll(db, sql: "SELECT ZIMAGE FROM ZPHOTO ORDER BY Z_PK")
        }
        #expect(columns[0] == Data([1]) + small)
        #expect(columns[1].count == 38 && columns[1].first == 2 && columns[1].last == 0)
        let name = String(decoding: columns[1].dropFirst().dropLast(), as: UTF8.self)
        #expect(UUID(uuidString: name)?.uuidString == name)
        #expect(try Data(contentsOf: external.appendingPathComponent(name)) == large)

        // Another context reads both back as the values they were.
        let reader = container.newBackgroundContext()
        let values = try reader.performAndWait {
            (try reader.existingObject(with: ids.0).value(forKey: "image") as? Data, try reader.existingObject(with: ids.1).value(forKey: "image") as? Data)
        }
        #expect(values.0 == small)
        #expect(values.1 == large)

        // A new large value gets a new file and the old one goes; a deleted value's file goes too.
        try context.performAndWait {
            let original = try context.existingObject(with: ids.1)
            original.setValue(Data(large.reversed()), forKey: "image")
            try context.save()
            #expect(try FileManager.default.contentsOfDirectory(atPath: external.path).count == 1)
            #expect(!FileManager.default.fileExists(atPath: external.appendingPathComponent(name).path))
            context.delete(original)
            try context.save()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: external.path).isEmpty)
        #expect(StoreCheck.run(storeAt: folder.url.appendingPathComponent("Photos.sqlite").path, bundle: container.model).error == nil)
    }

    @Test func aSaveThatFailsLeavesNoFileBehind() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let photo = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Photo"]!, insertInto: context)
            photo.setValue(Data(count: 10), forKey: "image")
            try context.save()
            return photo.objectID
        }
        // The row changes elsewhere once read, so this context's save of a large value is a conflict.
        let error = try context.performAndWait { () throws -> NSError? in
            let photo = try context.existingObject(with: id)
            _ = photo.value(forKey: "image")
            try container.database!.write { try $0.execute(sql: "UPDATE ZPHOTO SET Z_OPT = Z_OPT + 1") }
            photo.setValue(Data(count: 500_000), forKey: "image")
            let other = ManagedObject(entity: photo.entity, insertInto: context)
            other.setValue(Data(count: 400_000), forKey: "image")
            do {
                try context.save()
                return nil
            } catch {
                return error as NSError
            }
        }
        #expect(error?.code == 133020)
        let external = folder.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? []).isEmpty)
        let column = try await container.database!.read { try Data.fetchOne($0, sql: "SELECT ZIMAGE FROM ZPHOTO") }
        #expect(column == Data([1]) + Data(count: 10))
    }

    /// A container for a one-entity model whose binary attribute allows external storage.
    static func container(in folder: URL) async throws -> PersistentContainer {
        let bundle = folder.appendingPathComponent("Photos.xcdatamodeld")
        let version = bundle.appendingPathComponent("Photos.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Photo" representedClassName="Photo" syncable="YES" codeGenerationType="class">
                    <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                </entity>
            </model>
            """.utf8).write(to: version.appendingPathComponent("contents"))
        let container = try PersistentContainer(name: "Photos", model: bundle)
        container.persistentStoreDescriptions = [StoreDescription(url: folder.appendingPathComponent("Photos.sqlite"))]
        try await container.loadPersistentStores()
        return container
    }
}
