import Foundation
import Testing
import _ModelTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile models, generated here, run through the built `modelc`: each must end in its
/// documented exit status with its class and code, within a time bound, without a crash (no
/// stack overflow from deep nesting), and without touching a file.
@Suite(.serialized)
struct HostileModelTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

        """

    /// A model whose entities are the given XML, followed by `</model>`.
    static func model(_ entities: String) -> String {
        header + entities + "\n</model>\n"
    }

    /// One entity with a fetch request whose predicate is `predicate` (escaped for XML).
    static func model(predicate: String) -> String {
        let escaped = predicate.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        return model("""
                <fetchRequest name="Deep" entity="Item" predicateString="\(escaped)"/>
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
            """)
    }

    // MARK: - Deep nesting

    @Test func aCurrentVersionFileNestedFiftyThousandDeepIsRefused() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Deep.xcdatamodeld/Deep.xcdatamodel/contents", Self.model(""), in: folder)
            let plist = "<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: 50_000)
                + String(repeating: "</array>", count: 50_000) + "</plist>"
            try writeFile("Deep.xcdatamodeld/.xccurrentversion", plist, in: folder)
            let run = try HostileRun.run(["validate", "Deep.xcdatamodeld", "--json"], in: folder)
            #expect(run.status == 1)
            #expect(try run.diagnosticCodes() == ["X018"])
            let hash = try HostileRun.run(["hash", "Deep.xcdatamodeld", "--json"], in: folder)
            #expect(hash.status == 1)
            #expect(try hash.error() == ("invalidModel", "X018"))
        }
    }

    @Test func contentsNestedFiftyThousandDeepIsRefused() throws {
        try withTemporaryDirectory { folder in
            let deep = String(repeating: "<userInfo>", count: 50_000) + String(repeating: "</userInfo>", count: 50_000)
            try writeFile("Deep.xcdatamodel/contents", Self.model(deep), in: folder)
            let run = try HostileRun.run(["validate", "Deep.xcdatamodel", "--json"], in: folder)
            #expect(run.status == 1)
            #expect(try run.diagnosticCodes() == ["X018"])
        }
    }

    @Test(arguments: [
        ("parentheses", String(repeating: "(", count: 50_000) + "name == 1" + String(repeating: ")", count: 50_000)),
        ("NOT", String(repeating: "NOT ", count: 20_000) + "name == 1"),
        ("aggregates", "name IN " + String(repeating: "{", count: 20_000) + "1" + String(repeating: "}", count: 20_000)),
        ("function calls", "name == " + String(repeating: "now(", count: 20_000) + String(repeating: ")", count: 20_000)),
    ])
    func aPredicateNestedTooDeepIsAnErrorNotACrash(kind: String, predicate: String) throws {
        try withTemporaryDirectory { folder in
            try writeFile("Deep.xcdatamodel/contents", Self.model(predicate: predicate), in: folder)
            let run = try HostileRun.run(["validate", "Deep.xcdatamodel", "--json"], in: folder)
            #expect(run.status == 1, "\(kind)")
            #expect(try run.diagnosticCodes() == ["S127"], "\(kind)")
            let hash = try HostileRun.run(["hash", "Deep.xcdatamodel", "--json"], in: folder)
            #expect(try hash.error() == ("invalidModel", "S127"), "\(kind)")
            let compile = try HostileRun.run(["compile", "Deep.xcdatamodel", "-o", "."], in: folder)
            #expect(compile.status == 1, "\(kind)")
        }
    }

    @Test func aPredicateNestedAHundredDeepStillCompiles() throws {
        try withTemporaryDirectory { folder in
            let predicate = String(repeating: "(", count: 90) + "name == 1" + String(repeating: ")", count: 90)
            try writeFile("Deep.xcdatamodel/contents", Self.model(predicate: predicate), in: folder)
            let run = try HostileRun.run(["validate", "Deep.xcdatamodel", "--json"], in: folder)
            #expect(run.status == 0, "\(run.standardOutput)")
        }
    }

    @Test func aCompiledModelThatExpandsExponentiallyIsRefusedQuickly() throws {
        try withTemporaryDirectory { folder in
            // Object i (1…100) is an array holding object i-1 twice: 2^100 leaves if expanded.
            var bytes = Array("bplist00".utf8)
            var offsets = [bytes.count]
            bytes += [0x51, UInt8(ascii: "x")]
            for index in 1...100 {
                offsets.append(bytes.count)
                bytes += [0xA2, UInt8(index - 1), UInt8(index - 1)]
            }
            let table = bytes.count
            for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
            bytes += [0, 0, 0, 0, 0, 0, 2, 1]
            for value in [offsets.count, 100, table] {
                bytes += (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
            }
            try Data(bytes).write(to: folder.appendingPathComponent("Bomb.mom"))
            let run = try HostileRun.run(["inspect", "Bomb.mom", "--json"], in: folder, limit: 10)
            #expect(run.status == 1)
            #expect(try run.error() == ("unreadableModel", "X001"))
        }
    }

    // MARK: - Files that are not files

    @Test func aFIFOAsContentsOrCurrentVersionIsRefusedWithoutBlocking() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("Pipe.xcdatamodeld/Pipe.xcdatamodel"), withIntermediateDirectories: true)
            #expect(mkfifo(folder.appendingPathComponent("Pipe.xcdatamodeld/Pipe.xcdatamodel/contents").path, 0o644) == 0)
            let run = try HostileRun.run(["validate", "Pipe.xcdatamodeld", "--json"], in: folder, limit: 10)
            #expect(run.status == 1)
            #expect(try run.diagnosticCodes().contains("X019"))

            try writeFile("Current.xcdatamodeld/Current.xcdatamodel/contents", Self.model(""), in: folder)
            #expect(mkfifo(folder.appendingPathComponent("Current.xcdatamodeld/.xccurrentversion").path, 0o644) == 0)
            let current = try HostileRun.run(["hash", "Current.xcdatamodeld", "--json"], in: folder, limit: 10)
            #expect(current.status == 1)
            #expect(try current.error() == ("invalidModel", "X019"))

            #expect(mkfifo(folder.appendingPathComponent("Pipe.mom").path, 0o644) == 0)
            let compiled = try HostileRun.run(["inspect", "Pipe.mom", "--json"], in: folder, limit: 10)
            #expect(compiled.status == 1)
            #expect(try compiled.error() == ("unreadableModel", "X001"))
        }
    }

    // MARK: - Size

    @Test func validatingAChainOfFiveThousandSubentitiesIsFast() throws {
        try withTemporaryDirectory { folder in
            var entities = ""
            for index in 1...5_000 {
                let parent = index > 1 ? " parentEntity=\"E\(index - 1)\"" : ""
                entities += "<entity name=\"E\(index)\" representedClassName=\"E\(index)\"\(parent) syncable=\"YES\">"
                entities += "<attribute name=\"a\(index)\" optional=\"YES\" attributeType=\"String\"/></entity>\n"
            }
            // The last entity repeats an inherited name: the clash must still be found.
            entities += "<entity name=\"Last\" representedClassName=\"Last\" parentEntity=\"E5000\" syncable=\"YES\">"
            entities += "<attribute name=\"a1\" optional=\"YES\" attributeType=\"String\"/></entity>\n"
            try writeFile("Chain.xcdatamodel/contents", Self.model(entities), in: folder)
            let run = try HostileRun.run(["validate", "Chain.xcdatamodel", "--json"], in: folder)
            #expect(run.seconds < 5, "validate took \(run.seconds) s")
            #expect(run.status == 1)
            let codes = try run.diagnosticCodes()
            #expect(codes.filter { $0 == "S106" }.count == 1)
            // Entities from E101 down have more than 100 properties with the inherited ones.
            #expect(codes.filter { $0 == "S122" }.count == 4_901)
        }
    }
}
