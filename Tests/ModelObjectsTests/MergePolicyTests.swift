import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Optimistic locking and the five merge policies, each conflict set up with two contexts of one
/// container and checked on the row the save leaves, against the outcomes in
/// Documentation/MergePolicies.md (FreeCoreData's NSMergePolicyTests, run against Core Data, for
/// a property changed on both sides; the project's choices for rows deleted on one side).
struct MergePolicyTests {
    typealias Support = ContextTestSupport

    /// The row after: context 1 saves name A1 and email e1 over Alice/a@x, then context 2, which
    /// read Alice before, saves name A2 and a birth date.
    @Test(arguments: [
        ("error", "A1|e1|NULL"), ("storeTrump", "A1|e1|1000"), ("objectTrump", "A2|e1|1000"),
        ("overwrite", "A2|a@x|1000"), ("rollback", "A1|e1|NULL"),
    ])
    func aPropertyChangedOnBothSides(policy: String, row: String) async throws {
        let (container, folder, id) = try await Self.storeWithAlice()
        defer { folder.remove() }
        let (first, second) = (container.newBackgroundContext(), container.newBackgroundContext())
        second.mergePolicy = Self.policies[policy]!
        let stale = try second.performAndWait { try second.existingObject(with: id) }
        try first.performAndWait {
            let author = try first.existingObject(with: id)
            author.setValue("A1", forKey: "name")
            author.setValue("e1", forKey: "email")
            try first.save()
        }
        let error: NSError? = second.performAndWait {
            stale.setValue("A2", forKey: "name")
            stale.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "born")
            return ContextTestSupport.saveError(second)
        }
        let written = try Support.rows(container, "SELECT ZNAME, ZEMAIL, ZBORN FROM ZAUTHOR")
        #expect(written == [row], "\(written)")
        if policy == "error" {
            #expect(error?.code == 133020)
            let conflicts = error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict] ?? []
            #expect(conflicts.count == 1)
            #expect(conflicts.first?.sourceObject === stale)
            #expect(conflicts.first?.objectSnapshot?["name"] as? String == "Alice")
            #expect(conflicts.first?.cachedSnapshot?["name"] as? String == "A1")
            #expect(conflicts.first?.persistedSnapshot == nil)
            #expect(conflicts.first.map { ($0.oldVersionNumber, $0.newVersionNumber) }.map { $0 == (1, 2) } == true)
            second.performAndWait { #expect(stale.hasChanges) }
        } else {
            #expect(error == nil)
            second.performAndWait {
                #expect(!stale.hasChanges)
                let expected = row.split(separator: "|").first.map(String.init)
                #expect(stale.value(forKey: "name") as? String == expected)
            }
            #expect(try Support.rows(container, "SELECT Z_OPT FROM ZAUTHOR") == [policy == "rollback" ? "2" : "3"])
        }
    }

    /// Context 2 changes Alice after context 1 deleted her: the error policy reports it (version
    /// 0: gone); the others leave the row gone and forget the object.
    @Test(arguments: ["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
    func changedHereDeletedThere(policy: String) async throws {
        let (container, folder, id) = try await Self.storeWithAlice()
        defer { folder.remove() }
        let (first, second) = (container.newBackgroundContext(), container.newBackgroundContext())
        second.mergePolicy = Self.policies[policy]!
        let stale = try second.performAndWait { try second.existingObject(with: id) }
        try first.performAndWait {
            first.delete(try first.existingObject(with: id))
            try first.save()
        }
        let error: NSError? = second.performAndWait {
            stale.setValue("A2", forKey: "name")
            return ContextTestSupport.saveError(second)
        }
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZAUTHOR") == ["0"])
        if policy == "error" {
            let conflict = (error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict])?.first
            #expect(error?.code == 133020 && conflict?.newVersionNumber == 0 && conflict?.cachedSnapshot == nil)
        } else {
            #expect(error == nil)
            second.performAndWait { #expect(stale.managedObjectContext == nil && !second.hasChanges) }
        }
    }

    /// Context 2 deletes Alice after context 1 changed her: store trump and rollback keep the row
    /// as context 1 saved it and undelete the object; object trump and overwrite delete it.
    @Test(arguments: [("error", "A1"), ("storeTrump", "A1"), ("objectTrump", ""), ("overwrite", ""), ("rollback", "A1")])
    func deletedHereChangedThere(policy: String, row: String) async throws {
        let (container, folder, id) = try await Self.storeWithAlice()
        defer { folder.remove() }
        let (first, second) = (container.newBackgroundContext(), container.newBackgroundContext())
        second.mergePolicy = Self.policies[policy]!
        let stale = try second.performAndWait { try second.existingObject(with: id) }
        try first.performAndWait {
            try first.existingObject(with: id).setValue("A1", forKey: "name")
            try first.save()
        }
        let error: NSError? = second.performAndWait {
            second.delete(stale)
            return ContextTestSupport.saveError(second)
        }
        #expect(try Support.rows(container, "SELECT ZNAME FROM ZAUTHOR") == (row.isEmpty ? [] : [row]))
        #expect((error?.code == 133020) == (policy == "error"))
        if row == "A1", policy != "error" {
            second.performAndWait {
                #expect(!stale.isDeleted && stale.value(forKey: "name") as? String == "A1")
            }
        }
    }

    static let policies: [String: MergePolicy] = [
        "error": .error, "storeTrump": .mergeByPropertyStoreTrump, "objectTrump": .mergeByPropertyObjectTrump,
        "overwrite": .overwrite, "rollback": .rollback,
    ]

    /// A store holding one author, Alice (a@x), saved once.
    static func storeWithAlice() async throws -> (PersistentContainer, StackFolder, ManagedObjectID) {
        let folder = try StackFolder()
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Alice", forKey: "name")
            author.setValue("a@x", forKey: "email")
            try context.save()
            return author.objectID
        }
        return (container, folder, id)
    }
}
