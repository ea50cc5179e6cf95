import Foundation
import GRDB
import ModelObjects
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

    /// A large value changed or deleted here while another context moved its row on (`Z_OPT` + 1,
    /// the values as they were), under each merge policy: the row and the folder agree afterwards.
    /// The write the policy lets win removes the old file, the one it drops leaves the row naming
    /// its file, and the first attempt's file (its version test matched no row) does not stay.
    @Test(arguments: ["error", "storeTrump", "objectTrump", "overwrite", "rollback"], [false, true])
    func aConflictOverALargeValueLeavesTheRowAndTheFolderAgreeing(policy: String, deleting: Bool) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let (first, second) = (Self.pattern(300_000, seed: 1), Self.pattern(300_000, seed: 2))
        let context = container.newBackgroundContext()
        context.mergePolicy = try #require(MergePolicyTests.policies[policy])
        let error = try context.performAndWait { () throws -> NSError? in
            let photo = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Photo"]!, insertInto: context)
            photo.setValue(first, forKey: "image")
            try context.save()
            try container.database!.write { try $0.execute(sql: "UPDATE ZPHOTO SET Z_OPT = Z_OPT + 1") }
            if deleting { context.delete(photo) } else { photo.setValue(second, forKey: "image") }
            return ContextTestSupport.saveError(context)
        }
        #expect(error?.code == (policy == "error" ? 133020 : nil))
        // The stored row wins a changed value under error and rollback, a deletion under store trump too.
        let storeWins = deleting ? ["error", "storeTrump", "rollback"].contains(policy) : ["error", "rollback"].contains(policy)
        let expected: [Data] = storeWins ? [first] : deleting ? [] : [second]
        let reader = container.newBackgroundContext()
        let values = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Photo")).map { $0.value(forKey: "image") as? Data }
        }
        #expect(values == expected)
        let (named, present) = try await Self.files(of: container, in: folder.url)
        #expect(named.count == expected.count)
        #expect(present == named, "files: \(present.sorted()), named by rows: \(named.sorted())")
    }

    /// A process killed mid-save, again and again, while it inserts, changes and deletes large
    /// values: afterwards every row's file exists. Files a killed save wrote and files a killed
    /// commit had replaced stay behind, named by no row (nothing reads them); a sweep cannot tell
    /// them from the files another process's save is writing until it commits, so none is made.
    @Test func aProcessKilledMidSaveLeavesEveryRowItsFile() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let store = folder.url.appendingPathComponent("Photos.sqlite")
        let model = folder.url.appendingPathComponent("Photos.xcdatamodeld").path
        var orphans = 0
        for round in 1...3 {
            let worker = try WorkerProcess(store: store, model: model, history: false)
            worker.start("photos 300000")
            _ = try worker.event(timeout: 60)
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...300)))
            worker.kill()
            let (named, present) = try await Self.files(of: container, in: folder.url)
            #expect(!named.isEmpty)
            #expect(named.isSubset(of: present), "round \(round): rows name missing files \(named.subtracting(present).sorted())")
            // At most one save's files: its new value, its changed value, and the files it replaced.
            #expect(present.subtracting(named).count - orphans <= 4, "round \(round)")
            orphans = present.subtracting(named).count
            print("kill round \(round): \(named.count) rows with files, \(orphans) files no row names")
        }
        let reader = container.newBackgroundContext()
        let sizes = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Photo")).map { ($0.value(forKey: "image") as? Data)?.count }
        }
        #expect(!sizes.isEmpty && sizes.allSatisfy { $0 == 300_000 })
    }

    /// `count` bytes that differ with `seed`.
    static func pattern(_ count: Int, seed: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) })
    }

    /// The external-data files the rows of `container`'s store name, and those in its folder.
    static func files(of container: PersistentContainer, in folder: URL) async throws -> (named: Set<String>, present: Set<String>) {
        let columns = try await container.database!.read { try Data.fetchAll($0, sql: "SELECT ZIMAGE FROM ZPHOTO WHERE ZIMAGE IS NOT NULL") }
        let named = Set(columns.filter { $0.first == 2 }.map { String(decoding: $0.dropFirst().prefix { $0 != 0 }, as: UTF8.self) })
        let external = folder.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        return (named, Set((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? []))
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
