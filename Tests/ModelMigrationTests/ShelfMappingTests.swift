import Foundation
import GRDB
import ModelCompiler
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The committed Shelf mapping model (read by the custom-mapping kill test and benchmark) is the
/// one ``ShelfMapping`` defines, and it reads back as that definition.
struct ShelfMappingTests {
    /// Fails when `Fixtures/ShelfToShelf2.xcmappingmodel` is stale; `MODELC_REGENERATE=1` rewrites it.
    @Test func theCommittedMappingModelIsCurrent() throws {
        try withTemporaryDirectory { folder in
            let written = try ShelfMapping.write(into: folder)
            let fresh = try Data(contentsOf: URL(fileURLWithPath: written + "/xcmapping.xml"))
            let committedPath = ShelfMapping.mappingPath + "/xcmapping.xml"
            if ProcessInfo.processInfo.environment["MODELC_REGENERATE"] == "1" {
                try FileManager.default.createDirectory(atPath: ShelfMapping.mappingPath, withIntermediateDirectories: true)
                try fresh.write(to: URL(fileURLWithPath: committedPath))
            }
            let committed = FileManager.default.contents(atPath: committedPath) ?? Data()
            // The document's UUID is new each time, as in Xcode; everything else must match.
            let withoutUUID = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.contains("<UUID>") } }
            #expect(withoutUUID(committed) == withoutUUID(fresh), "stale: run MODELC_REGENERATE=1 swift test --filter ShelfMappingTests")
        }
    }

    /// Reading the committed file gives back the definition: names, hashes, expressions.
    @Test func theCommittedMappingModelReadsAsDefined() throws {
        let read = MappingCompilation.read(at: ShelfMapping.mappingPath)
        #expect(read.diagnostics.filter { $0.severity == .error } == [])
        let model = try #require(read.model)
        let defined = try ShelfMapping.model(try MigrationTestSupport.bundle(ShelfMapping.bundlePath))
        #expect(model.entityMappings.map(\.name) == defined.entityMappings.map(\.name))
        #expect(model.sourceEntityHashes == defined.sourceEntityHashes)
        #expect(model.destinationEntityHashes == defined.destinationEntityHashes)
        for (read, defined) in zip(model.entityMappings, defined.entityMappings) {
            #expect(read.type == defined.type)
            #expect(read.attributeMappings.map(\.valueExpression) == defined.attributeMappings.map(\.valueExpression))
            #expect(read.relationshipMappings.map(\.valueExpression) == defined.relationshipMappings.map(\.valueExpression))
        }
    }
}

/// The migration manager, as a library, runs the Shelf mapping with the values it defines.
struct ShelfMigrationTests {
    @Test func theManagerMigratesAShelfStoreThroughTheMapping() throws {
        try withTemporaryDirectory { folder in
            let bundle = try MigrationTestSupport.bundle(ShelfMapping.bundlePath)
            let store = folder.appendingPathComponent("Shelf.sqlite").path
            try ShelfMapping.makeStore(at: store, books: 2_000)
            let mapping = try #require(MappingCompilation.read(at: ShelfMapping.mappingPath).model)
            let result = try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store)
            #expect(result.destination == "Shelf 2")
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(try #require(bundle.version(named: "Shelf 2"))).entityHashes())
            #expect(try ShelfMapping.violations(in: store, books: 2_000) == [])
        }
    }

    /// A title holding U+0000 goes through the mapping whole, as Core Data hands the NSString to
    /// the mapping's expressions: the filter `title ENDSWITH "b"` selects "a\0b" (and not
    /// "b\0x", which ends in "b" only if cut at its NUL), and `uppercaseString` makes it "A\0B",
    /// on both paths.
    @Test func aTitleHoldingNULIsFilteredAndMappedWhole() throws {
        try withTemporaryDirectory { folder in
            let bundle = try MigrationTestSupport.bundle(ShelfMapping.bundlePath)
            var mapping = try ShelfMapping.model(bundle)
            let book = try #require(mapping.entityMappings.firstIndex { $0.name == "BookToBook" })
            mapping.entityMappings[book].sourceExpression = SourceExpression(entityName: "Book", predicate: #"title ENDSWITH "b""#)
            for usesSQL in [false, true] {
                let store = folder.appendingPathComponent("Shelf-\(usesSQL).sqlite").path
                try ShelfMapping.makeStore(at: store, books: 3)
                try DatabaseQueue(path: store).write { db in
                    // Text holding a NUL, written as its bytes: GRDB would bind the text cut.
                    for (key, title) in [(1, "a\u{0}b"), (2, "b\u{0}x")] {
                        try db.execute(sql: "UPDATE ZBOOK SET ZTITLE = CAST(? AS TEXT) WHERE Z_PK = ?", arguments: [Data(title.utf8), key])
                    }
                }
                var options = MigrationManager.Options()
                options.usesSQL = usesSQL
                #expect(try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store, options: options).outcome == .migrated)
                let titles = try DatabaseQueue(path: store).read { db in try String.fetchAll(db, sql: "SELECT hex(ZTITLE) FROM ZBOOK ORDER BY Z_PK") }
                #expect(titles == ["410042"], "usesSQL \(usesSQL)")
            }
        }
    }

    /// `Writer.books` names the links `Book.author` sets: the set-based path sets them once, from
    /// the to-one side, and writes what the row-by-row path writes setting both sides.
    /// Source keys as stores have them after deletions and imports: from 1 without gaps (the
    /// set-based path shifts them), gaps in one entity's keys (it keeps a keyed table), offsets.
    @Test(arguments: [
        [],
        ["UPDATE ZAUTHOR SET Z_PK = -Z_PK", "UPDATE ZAUTHOR SET Z_PK = -Z_PK * 3", "UPDATE ZBOOK SET ZAUTHOR = ZAUTHOR * 3, Z_PK = -Z_PK",
         "UPDATE ZBOOK SET Z_PK = 1000 - Z_PK"],
        ["UPDATE ZAUTHOR SET Z_PK = -Z_PK", "UPDATE ZAUTHOR SET Z_PK = 7 - Z_PK", "UPDATE ZBOOK SET ZAUTHOR = ZAUTHOR + 7, Z_PK = -Z_PK",
         "UPDATE ZBOOK SET Z_PK = -Z_PK * 2"],
    ])
    func bothPathsLinkWritersAndBooksAlike(renumbering: [String]) throws {
        try withTemporaryDirectory { folder in
            let bundle = try MigrationTestSupport.bundle(ShelfMapping.bundlePath)
            let mapping = try #require(MappingCompilation.read(at: ShelfMapping.mappingPath).model)
            var tables = [[[[DatabaseValue]]]]()
            for usesSQL in [false, true] {
                let store = folder.appendingPathComponent("Shelf-\(usesSQL).sqlite").path
                try ShelfMapping.makeStore(at: store, books: 500)
                try DatabaseQueue(path: store).write { db in
                    for statement in renumbering { try db.execute(sql: statement) }
                    try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME WHEN 'Author' THEN (SELECT MAX(Z_PK) FROM ZAUTHOR) ELSE (SELECT MAX(Z_PK) FROM ZBOOK) END")
                }
                var options = MigrationManager.Options()
                options.usesSQL = usesSQL
                #expect(try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store, options: options).outcome == .migrated)
                #expect(try ShelfMapping.violations(in: store, books: 500) == [])
                let queue = try DatabaseQueue(path: store)
                let rows = try queue.read { db in
                    try ["ZBOOK", "ZWRITER", "Z_PRIMARYKEY"].map { table in
                        try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { Array($0.databaseValues) }
                    }
                }
                tables.append(rows)
                try queue.close()
            }
            #expect(tables[0] == tables[1])
        }
    }
}
