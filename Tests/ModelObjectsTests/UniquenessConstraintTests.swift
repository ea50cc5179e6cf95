import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Uniqueness constraints at save: a new object whose constrained values a stored row has fails
/// the save with 133021 and a constraint conflict under the error policy, and under the others
/// becomes that row, its values written over it (object trump, overwrite: the usual upsert) or
/// the row's taken (store trump, rollback); two new objects sharing values are refused.
struct UniquenessConstraintTests {
    @Test(arguments: [("error", "swift|1"), ("objectTrump", "swift|2"), ("overwrite", "swift|2"), ("storeTrump", "swift|1"), ("rollback", "swift|1")])
    func aNewObjectCollidingWithAStoredRow(policy: String, row: String) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let stored = try Self.insertTag("swift", uses: 1, in: container.newBackgroundContext(), container)
        let context = container.newBackgroundContext()
        context.mergePolicy = MergePolicyTests.policies[policy]!
        let (tag, error): (ManagedObject, NSError?) = context.performAndWait {
            let tag = ManagedObject(entity: Self.entity(container), insertInto: context)
            tag.setValue("swift", forKey: "name")
            tag.setValue(Int64(2), forKey: "uses")
            return (tag, ContextTestSupport.saveError(context))
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZNAME, ZUSES FROM ZTAG") == [row])
        if policy == "error" {
            #expect(error?.code == 133021)
            let conflict = (error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [ConstraintConflict])?.first
            #expect(conflict?.constraint == ["name"])
            #expect(conflict?.constraintValues["name"] as? String == "swift")
            #expect(conflict?.conflictingObjects.first === tag)
            #expect(conflict?.databaseObject?.objectID == stored)
            #expect(conflict?.databaseSnapshot?["uses"] as? Int64 == 1)
            context.performAndWait { #expect(tag.isInserted) }
        } else {
            #expect(error == nil)
            context.performAndWait {
                #expect(tag.objectID == stored)
                #expect(!tag.hasChanges)
                #expect(tag.value(forKey: "uses") as? Int64 == Int64(row.split(separator: "|")[1]))
            }
        }
    }

    @Test(arguments: ["error", "objectTrump"])
    func twoNewObjectsSharingValuesAreRefused(policy: String) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        context.mergePolicy = MergePolicyTests.policies[policy]!
        let error: NSError? = context.performAndWait {
            for uses in [Int64(1), 2] {
                let tag = ManagedObject(entity: Self.entity(container), insertInto: context)
                tag.setValue("kotlin", forKey: "name")
                tag.setValue(uses, forKey: "uses")
            }
            return ContextTestSupport.saveError(context)
        }
        #expect(error?.code == 133021)
        let conflict = (error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [ConstraintConflict])?.first
        #expect(conflict?.databaseObject == nil && conflict?.conflictingObjects.count == 2)
        #expect(try ContextTestSupport.rows(container, "SELECT COUNT(*) FROM ZTAG") == ["0"])
    }

    static func insertTag(_ name: String, uses: Int64, in context: ManagedObjectContext, _ container: PersistentContainer) throws -> ManagedObjectID {
        try context.performAndWait {
            let tag = ManagedObject(entity: entity(container), insertInto: context)
            tag.setValue(name, forKey: "name")
            tag.setValue(uses, forKey: "uses")
            try context.save()
            return tag.objectID
        }
    }

    static func entity(_ container: PersistentContainer) -> EntityDescription {
        container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Tag"]!
    }

    static func container(in folder: URL) async throws -> PersistentContainer {
        let bundle = folder.appendingPathComponent("Tags.xcdatamodeld")
        let version = bundle.appendingPathComponent("Tags.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Tag" representedClassName="Tag" syncable="YES" codeGenerationType="class">
                    <attribute name="name" attributeType="String"/>
                    <attribute name="uses" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="name"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
            </model>
            """.utf8).write(to: version.appendingPathComponent("contents"))
        let container = try PersistentContainer(name: "Tags", model: bundle)
        container.persistentStoreDescriptions = [StoreDescription(url: folder.appendingPathComponent("Tags.sqlite"))]
        try await container.loadPersistentStores()
        return container
    }
}
