import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Saves of updates to an entity of 70 attributes: a save prepares one `UPDATE` per set of
/// columns and reuses it for later rows, keeping the sets of slots below 64 as one word and the
/// others as sets of any size. Each row must get its own values in its own columns, whichever
/// way its set of columns was kept, and two sets that differ only past the 64th slot must not
/// share a statement.
struct WideEntityUpdateTests {
    static let attributeCount = 70

    static var contents: String {
        let attributes = (0..<attributeCount).map {
            #"<attribute name="a\#($0)" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>"#
        }
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Wide" representedClassName="Wide" syncable="YES">
                    \(attributes.joined(separator: "\n                    "))
                </entity>
            </model>
            """
    }

    /// The attributes each of six saved rows gets a new value in, by row: two rows of the same
    /// narrow set, given in both orders; two sets that differ only past slot 64 (with one column
    /// in common below it); a set past slot 64 alone; one narrow set of its own.
    static let changes: [[Int]] = [[1, 2], [2, 1], [3, 66], [3, 67], [69], [5]]

    @Test func eachUpdatedRowGetsItsOwnValuesInItsOwnColumns() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await ContextlessObjectTests.container(Self.contents, named: "wide", in: folder.url)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let entity = try #require(writer.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Wide"])
            for row in Self.changes.indices {
                let object = ManagedObject(entity: entity, insertInto: writer)
                object.setValue(Int64(row), forKey: "a0")
                for slot in 1..<Self.attributeCount { object.setValue(Int64(0), forKey: "a\(slot)") }
            }
            try writer.save()
        }
        let updater = container.newBackgroundContext()
        try updater.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Wide")
            request.sortDescriptors = [FetchSortDescriptor(key: "a0")]
            let objects = try updater.fetch(request)
            #expect(objects.count == Self.changes.count)
            for (row, attributes) in Self.changes.enumerated() {
                for attribute in attributes { objects[row].setValue(Int64(1000 * row + attribute), forKey: "a\(attribute)") }
            }
            try updater.save()
        }
        let columns = (0..<Self.attributeCount).map { "ZA\($0)" }.joined(separator: ", ")
        let rows = try ContextTestSupport.rows(container, "SELECT Z_OPT, \(columns) FROM ZWIDE ORDER BY ZA0")
        for (row, attributes) in Self.changes.enumerated() {
            var expected = ["2", "\(row)"] + Array(repeating: "0", count: Self.attributeCount - 1)
            for attribute in attributes { expected[attribute + 1] = "\(1000 * row + attribute)" }
            #expect(rows[row] == expected.joined(separator: "|"), "row \(row), attributes \(attributes)")
        }
    }
}
