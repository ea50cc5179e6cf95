import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// A history request's `resultType` shapes what `result` holds, as CoreDataPlus's history helpers
/// cast it on Apple platforms (`NSManagedObjectContext+History.swift`: `.transactionsOnly` and
/// `.transactionsAndChanges` as `[NSPersistentHistoryTransaction]`, `.changesOnly` as
/// `[NSPersistentHistoryChange]`, a deletion's `.statusOnly` as `Bool`), with Apple's
/// `NSPersistentHistoryResultType` documentation for the rest: `.count` is "the number of
/// persistent history changes", `.objectIDs` "the identifiers of managed objects changed", and
/// the default is `.transactionsAndChanges`.
struct HistoryResultTypeTests {
    typealias Support = ContextTestSupport

    @Test func eachResultTypeGivesItsForm() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url)
        let context = container.newBackgroundContext()
        let first = try HistoryTokenTests.insertAuthor("Le Guin", context)
        let second = try HistoryTokenTests.insertAuthor("Banks", context)
        try context.performAndWait {
            let author = try context.existingObject(with: first)
            author.setValue("Ursula K. Le Guin", forKey: "name")
            try context.save()
        }

        func result(_ type: HistoryResultType?) throws -> Any? {
            let request = HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)
            if let type { request.resultType = type }
            return try context.performAndWait { try context.execute(request).result }
        }
        #expect(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?).resultType == .transactionsAndChanges)
        let all = try #require(try result(nil) as? [HistoryTransaction])
        #expect(all.map(\.changes.count) == [1, 1, 1])
        let bare = try #require(try result(.transactionsOnly) as? [HistoryTransaction])
        #expect(bare.map(\.token) == all.map(\.token) && bare.allSatisfy(\.changes.isEmpty))
        let changes = try #require(try result(.changesOnly) as? [HistoryChange])
        #expect(changes.map(\.changeType) == [.insert, .insert, .update])
        #expect(try result(.count) as? Int == 3)
        #expect(try result(.objectIDs) as? [ManagedObjectID] == [first, second])
        #expect(try result(.statusOnly) as? Bool == true)

        let deletion = HistoryChangeRequest.deleteHistory(before: all[1].token)
        deletion.resultType = .statusOnly
        #expect(try context.performAndWait { try context.execute(deletion).result } as? Bool == true)
        #expect(try #require(try result(nil) as? [HistoryTransaction]).count == 2)
    }
}
