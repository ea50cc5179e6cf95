import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Core Data stores an NSString attribute whole: a string holding U+0000 is saved as TEXT of all
/// its UTF-8 bytes and read back as the same characters, and a predicate compares it whole.
/// The stored bytes are read with SQL's `hex()` and `typeof()` (SQLite's `length()` of text
/// counts only the characters before the first NUL, so the byte count is taken of the text as a blob).
struct TextWithNULTests {
    typealias Support = ContextTestSupport

    /// Names holding U+0000 in the middle, alone and at the end, and the name they would be cut to.
    static let names = ["a\u{0}b", "\u{0}", "abc\u{0}", "a"]

    /// A container on a new store in `folder` with one author of each of ``names``, saved.
    static func savedAuthors(in folder: StackFolder) async throws -> PersistentContainer {
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!
            for name in names {
                ManagedObject(entity: entity, insertInto: context).setValue(name, forKey: "name")
            }
            try context.save()
        }
        return container
    }

    @Test func aStringHoldingNULIsSavedAsWholeTextAndReadBackWhole() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.savedAuthors(in: folder)
        #expect(try Support.rows(container, "SELECT typeof(ZNAME), hex(ZNAME), length(CAST(ZNAME AS BLOB)) FROM ZAUTHOR ORDER BY Z_PK") == [
            "text|610062|3", "text|00|1", "text|61626300|4", "text|61|1",
        ])
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            // A fetch's rows, and a fault fired in a fresh context.
            let authors = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
            #expect(authors.compactMap { $0.value(forKey: "name") as? String }.sorted() == Self.names.sorted())
            let other = container.newBackgroundContext()
            let faulted = try other.performAndWait { try authors.map { try other.existingObject(with: $0.objectID).value(forKey: "name") as? String } }
            #expect(faulted.compactMap { $0 }.sorted() == Self.names.sorted())
            // A dictionary fetch's values.
            let request = FetchRequest<[String: Any]>(entityName: "Author")
            request.propertiesToFetch = ["name"]
            #expect(try reader.fetch(request).compactMap { $0["name"] as? String }.sorted() == Self.names.sorted())
            // An update writes the whole string too.
            let middle = try #require(authors.first { $0.value(forKey: "name") as? String == "a\u{0}b" })
            middle.setValue("x\u{0}\u{0}y", forKey: "name")
            try reader.save()
        }
        #expect(try Support.rows(container, "SELECT hex(ZNAME) FROM ZAUTHOR WHERE Z_PK = 1") == ["78000079"])
    }

    @Test func aPredicateComparesAStringHoldingNULWhole() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.savedAuthors(in: folder)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            func names(_ format: String, _ argument: Any) throws -> [String] {
                let request = FetchRequest<ManagedObject>(entityName: "Author")
                request.predicate = FetchPredicate(format: format, argument)
                return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }.sorted()
            }
            #expect(try names("name == %@", "a\u{0}b") == ["a\u{0}b"])
            #expect(try names("name != %@", "a\u{0}b") == ["\u{0}", "a", "abc\u{0}"])
            #expect(try names("name IN %@", ["\u{0}", "abc"]) == ["\u{0}"])
            // A search for a NUL finds it, and only it (BEGINSWITH "a" would also find "a" and "abc\0").
            #expect(try names("name BEGINSWITH %@", "a\u{0}") == ["a\u{0}b"])
            // Unsaved objects are matched in memory, whole as well.
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!
            ManagedObject(entity: entity, insertInto: context).setValue("a\u{0}c", forKey: "name")
            #expect(try names("name == %@", "a\u{0}c") == ["a\u{0}c"])
        }
    }

    /// The string operators read a string holding U+0000 whole, as NSString's searches and
    /// comparisons do (U+0000 is a character like any other): the store's SQL functions find
    /// what the evaluator finds in the same objects unsaved, and neither stops at the NUL.
    @Test func theStoreSearchesAStringHoldingNULAsTheEvaluatorDoes() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!
            for name in ["a\u{0}b", "a", "\u{0}", "xb"] {
                ManagedObject(entity: entity, insertInto: context).setValue(name, forKey: "name")
            }
            let searches: [(String, String, [String])] = [
                ("name CONTAINS %@", "b", ["a\u{0}b", "xb"]),
                ("name BEGINSWITH %@", "a\u{0}", ["a\u{0}b"]),
                ("name ENDSWITH %@", "b", ["a\u{0}b", "xb"]),
                ("name LIKE %@", "a*b", ["a\u{0}b"]),
                ("name MATCHES %@", "a.b", ["a\u{0}b"]),
                ("name ==[c] %@", "A\u{0}B", ["a\u{0}b"]),
                ("name CONTAINS[cd] %@", "\u{0}", ["\u{0}", "a\u{0}b"]),
            ]
            // Each search on its own: one that fails is recorded and the others still run.
            func found() -> [[String]?] {
                searches.map { format, argument, _ in
                    do {
                        let request = FetchRequest<ManagedObject>(entityName: "Author")
                        request.predicate = FetchPredicate(format: format, argument)
                        return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }.sorted()
                    } catch {
                        Issue.record(error, "\(format) \(argument.debugDescription)")
                        return nil
                    }
                }
            }
            let inMemory = found()
            try context.save()
            let stored = found()
            for (index, (format, argument, expected)) in searches.enumerated() {
                #expect(inMemory[index] == expected, "evaluator: \(format) \(argument.debugDescription)")
                #expect(stored[index] == expected, "store: \(format) \(argument.debugDescription)")
            }
        }
    }
}
