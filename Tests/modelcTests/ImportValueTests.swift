import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `modelc import` checks each value against its attribute's type and each link against its
/// destination entity, and refuses a file of the wrong shape, with the place and Core Data's
/// code and no store written; what it accepts it stores exactly (an Integer 64 to its last
/// digit, a date to its last bit), and `fetch --json` prints every stored value in a form
/// import reads back (non-finite numbers too). Expected values come from the type widths, the
/// calendar and IEEE 754, and the stored columns are read back with SQL.
@Suite
struct ImportValueTests {
    /// A model with one attribute of each type an import sets.
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Value" representedClassName="Value" syncable="YES" codeGenerationType="class">
                <attribute name="small" optional="YES" attributeType="Integer 16" usesScalarValueType="NO"/>
                <attribute name="medium" optional="YES" attributeType="Integer 32" usesScalarValueType="NO"/>
                <attribute name="large" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
                <attribute name="real" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
                <attribute name="single" optional="YES" attributeType="Float" usesScalarValueType="NO"/>
                <attribute name="exact" optional="YES" attributeType="Decimal"/>
                <attribute name="when" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// A folder with the model, and a function importing a file of `objects` (JSON text) into a
    /// new store there.
    struct Folder {
        let url: URL
        var model: String { url.appendingPathComponent("Values.xcdatamodeld").path }
        var store: String { url.appendingPathComponent("values.sqlite").path }

        init() throws {
            url = try Modelc.temporaryFolder()
            let version = url.appendingPathComponent("Values.xcdatamodeld/Values.xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(ImportValueTests.model.utf8).write(to: version.appendingPathComponent("contents"))
        }

        func importing(_ objects: String, model: String? = nil) throws -> Modelc.Run {
            let file = url.appendingPathComponent("objects.json")
            try Data("{\"objects\": [\(objects)]}".utf8).write(to: file)
            return try Modelc.run(["import", store, "--model", model ?? self.model, file.path, "--json"])
        }

        /// One column of the first row of ZVALUE, read with SQL.
        func column(_ name: String) throws -> DatabaseValue {
            let queue = try DatabaseQueue(path: store)
            defer { try? queue.close() }
            return try queue.read { db in try DatabaseValue.fetchOne(db, sql: "SELECT \(name) FROM ZVALUE") } ?? .null
        }
    }

    /// Expects the run to be refused at `place` with `code`, and no store made.
    static func expectRefused(_ run: Modelc.Run, _ place: String, _ code: String, _ folder: Folder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(run.status == 1, "\(run.standardOutput)", sourceLocation: sourceLocation)
        let error = try run.json()["error"] as? [String: Any]
        #expect(error?["class"] as? String == "invalidImport", sourceLocation: sourceLocation)
        #expect((error?["message"] as? String)?.hasPrefix(place + ":") == true, "\(error ?? [:])", sourceLocation: sourceLocation)
        #expect(error?["code"] as? String == code, "\(error ?? [:])", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: folder.store), sourceLocation: sourceLocation)
    }

    @Test func aValueItsTypeCannotHoldIsRefusedWithItsPlace() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        for (value, key, code) in [
            ("70000", "small", "1550"), ("-32769", "small", "1550"), ("3000000000", "medium", "1550"),
            ("9223372036854775808", "large", "1550"), ("1.5", "large", "1550"), ("1e39", "single", "1550"),
            ("1e400", "real", "1550"),
            ("\"2024-02-30T00:00:00Z\"", "when", "1650"), ("\"2023-02-29T00:00:00Z\"", "when", "1650"),
            ("\"2024-01-01T24:00:00Z\"", "when", "1650"), ("\"12abc\"", "exact", "1550"),
        ] {
            let run = try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"\#(key)": \#(value)}}"#)
            try Self.expectRefused(run, "objects[0].attributes.\(key)", code, folder)
        }
    }

    @Test func integersAreStoredExactlyToTheEndsOfTheirWidths() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let run = try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"small": -32768, "medium": 2147483647, "large": 9007199254740993}}"#)
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(try folder.column("ZSMALL") == Int64(Int16.min).databaseValue)
        #expect(try folder.column("ZMEDIUM") == Int64(Int32.max).databaseValue)
        // 2^53 + 1: a double between would make it 2^53.
        #expect(try folder.column("ZLARGE") == Int64(9_007_199_254_740_993).databaseValue)
        try FileManager.default.removeItem(atPath: folder.store)
        #expect(try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"large": 9223372036854775807}}"#).status == 0)
        #expect(try folder.column("ZLARGE") == Int64.max.databaseValue)
    }

    /// A date's fraction of a second is kept to the last bit of the stored double:
    /// `whole seconds + 0.<fraction>`, 2024-02-29T12:00:00Z being 730,900,800 s after
    /// 2001-01-01 (8,459 days and a half), and `fetch --json` prints a text that reads back to it.
    @Test func datesAreStoredAndPrintedToTheirLastBit() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let run = try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"when": "2024-02-29T13:00:00.123456789+01:00"}}"#)
        #expect(run.status == 0, "\(run.standardOutput)")
        let seconds = Double(8_459 * 86_400 + 43_200) + 0.123456789
        #expect(try folder.column("ZWHEN") == seconds.databaseValue)
        let printed = try #require(FetchImportCommandTests.fetchAll(folder.store, folder.model, ["Value"]).first?["attributes"] as? [String: Any])
        let text = try #require(printed["when"] as? String)
        #expect(text.hasPrefix("2024-02-29T12:00:00.123456") && text.hasSuffix("Z"), "\(text)")
        try FileManager.default.removeItem(atPath: folder.store)
        #expect(try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"when": "\#(text)"}}"#).status == 0)
        guard case .double(let again) = try folder.column("ZWHEN").storage else { throw CocoaError(.coderReadCorrupt) }
        #expect(again.bitPattern == seconds.bitPattern)
    }

    /// A string holding U+0000 is stored whole as TEXT, as Core Data keeps an NSString, printed by
    /// `fetch --json` with the NUL escaped (`\u0000`, JSON's only form for it), and imported back
    /// to the same bytes.
    @Test func aStringHoldingNULIsStoredWholeAndPrintedBack() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let run = try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"text": "a\u0000b"}}"#)
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(try folder.column("typeof(ZTEXT)") == "text".databaseValue)
        #expect(try folder.column("hex(ZTEXT)") == "610062".databaseValue)
        let fetch = try FetchImportCommandTests.fetchText(folder.store, folder.model, "Value")
        #expect(fetch.standardOutput.contains(#""text" : "a\u0000b""#), "\(fetch.standardOutput)")
        let printed = try #require((try fetch.json()["objects"] as? [[String: Any]])?.first?["attributes"] as? [String: Any])
        #expect(printed["text"] as? String == "a\u{0}b")
        try FileManager.default.removeItem(atPath: folder.store)
        let again = try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"text": "a\u0000b"}}"#)
        #expect(again.status == 0, "\(again.standardOutput)")
        #expect(try FetchImportCommandTests.fetchAll(folder.store, folder.model, ["Value"]).first.flatMap { $0["attributes"] as? [String: Any] }?["text"] as? String == "a\u{0}b")
    }

    /// A float that overflowed to infinity in a store is printed as "Infinity" (JSON has no
    /// infinity), and import reads that back; a decimal NaN is read back as one.
    @Test func nonFiniteNumbersArePrintedAndReadBack() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        #expect(try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"small": 1}}"#).status == 0)
        let queue = try DatabaseQueue(path: folder.store)
        try queue.write { db in try db.execute(sql: "UPDATE ZVALUE SET ZSINGLE = 1e999, ZREAL = -1e999") }
        try queue.close()
        let fetch = try Modelc.run(["fetch", folder.store, "--model", folder.model, "--entity", "Value", "--json"])
        #expect(fetch.status == 0, "\(fetch.standardOutput)")
        let attributes = try #require((try fetch.json()["objects"] as? [[String: Any]])?.first?["attributes"] as? [String: Any])
        #expect(attributes["single"] as? String == "Infinity")
        #expect(attributes["real"] as? String == "-Infinity")
        try FileManager.default.removeItem(atPath: folder.store)
        let run = try folder.importing(#"{"id": "a", "entity": "Value", "attributes": {"single": "Infinity", "real": "-Infinity", "exact": "NaN"}}"#)
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(try folder.column("ZSINGLE") == Double.infinity.databaseValue)
        #expect(try folder.column("ZREAL") == (-Double.infinity).databaseValue)
    }

    @Test func aFileOfTheWrongShapeIsRefusedWithItsPlace() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        for (object, place) in [
            (#"{"id": "a", "entity": "Value", "attributes": ["small", 1]}"#, "objects[0].attributes"),
            (#"{"id": "a", "entity": "Value", "relationships": "x"}"#, "objects[0].relationships"),
            (#"{"id": 1, "entity": "Value"}"#, "objects[0].id"),
            (#"{"id": "a", "entity": "Value", "attribute": {}}"#, "objects[0].attribute"),
        ] {
            try Self.expectRefused(try folder.importing(object), place, "1550", folder)
        }
    }

    /// A link to an object of another entity than the destination (or its subentities) is
    /// refused: `author` is an Author, `topics` are Topics; a Book is a Publication.
    @Test func aLinkToAnObjectOfAnotherEntityIsRefused() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let library = Corpus.packagePath("Models/Library.xcdatamodeld")
        let topic = #"{"id": "t", "entity": "Topic", "attributes": {"name": "n"}}"#
        let author = #"{"id": "w", "entity": "Author", "attributes": {"name": "n"}}"#
        for (book, place) in [
            (#"{"id": "b", "entity": "Book", "attributes": {"title": "t", "isbn": "1"}, "relationships": {"author": "t"}}"#, "objects[0].relationships.author"),
            (#"{"id": "b", "entity": "Book", "attributes": {"title": "t", "isbn": "1"}, "relationships": {"topics": ["w"]}}"#, "objects[0].relationships.topics"),
            (#"{"id": "b", "entity": "Book", "attributes": {"title": "t", "isbn": "1"}, "relationships": {"author": ["w"]}}"#, "objects[0].relationships.author"),
        ] {
            try Self.expectRefused(try folder.importing([book, topic, author].joined(separator: ","), model: library), place, "1550", folder)
        }
        let review = #"{"id": "r", "entity": "Review", "attributes": {"rating": 1}, "relationships": {"publication": "b"}}"#
        let book = #"{"id": "b", "entity": "Book", "attributes": {"title": "t", "isbn": "1"}, "relationships": {"author": "w", "topics": ["t"]}}"#
        let run = try folder.importing([review, book, topic, author].joined(separator: ","), model: library)
        #expect(run.status == 0, "\(run.standardOutput)")
    }

    /// A gigabyte of NULs (a sparse file, no disk) is refused from its first bytes: the whole
    /// file is never read, so the run fits in a quarter of the file's size in address space.
    @Test func aLargeFileThatIsNotJSONIsRefusedFromItsFirstBytes() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let file = folder.url.appendingPathComponent("zeros.json")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let run = try Modelc.run(
            ["import", folder.store, "--model", folder.model, file.path, "--json"], wrapper: ["/usr/bin/prlimit", "--as=\(256 << 20)", "--"])
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        let error = try run.json()["error"] as? [String: Any]
        #expect(error?["message"] as? String == "the file is not a JSON object with an \"objects\" array: byte 0 is the control character 0x00")
        #expect(error?["code"] as? String == "1550")
        #expect(!FileManager.default.fileExists(atPath: folder.store))
    }
}
