import Foundation
import Testing
import _ModelTestSupport

/// `modelc check` as a CI job runs it: a verdict per shipped version, the lock file catching a
/// shipped version edited in place, GitHub annotations on the model files.
@Suite(.serialized)
struct CheckCommandTests {
    static let library = "Models/Library.xcdatamodeld"

    @Test func everyVersionOfTheLibraryMigratesSafelyToTheCurrentOne() throws {
        let run = try Modelc.run(["check", Self.library])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Library → Library 3: safe"))
        #expect(run.standardOutput.contains("Library 2 → Library 3: safe"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Modelc.run(["check", Self.library, "--json"]).standardOutput.utf8)) as? [String: Any])
        #expect((json["versions"] as? [[String: Any]])?.compactMap { $0["risk"] as? String } == ["safe", "safe"])
    }

    /// A copy of the Library bundle: after the lock is written, version 2 is edited in place (an
    /// attribute changes type) and the current version drops an attribute.
    @Test func aShippedVersionEditedInPlaceFailsTheLockAndIsAnnotated() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Library.xcdatamodeld")
            try FileManager.default.copyItem(at: Corpus.packageRoot.appendingPathComponent(Self.library), to: bundle)
            let lock = folder.appendingPathComponent("Library.lock.json").path
            let written = try Modelc.run(["check", bundle.path, "--write-lock", lock])
            #expect(written.status == 0, "\(written.standardError)")
            #expect(FileManager.default.fileExists(atPath: lock))

            let contents = bundle.appendingPathComponent("Library 2.xcdatamodel/contents")
            let text = try String(contentsOf: contents, encoding: .utf8)
            let edited = try #require(Self.changingToInteger("name", in: text))
            try edited.text.write(to: contents, atomically: true, encoding: .utf8)

            let run = try Modelc.run(["check", bundle.path, "--lock", lock])
            #expect(run.status == 2)
            #expect(run.standardError.contains("[M221]"))
            #expect(run.standardError.contains("shipped version 'Library 2' was edited in place"))
            #expect(run.standardError.contains("'\(edited.attribute)'"), "names the property that changed")

            let github = try Modelc.run(["check", bundle.path, "--lock", lock, "--format", "github"])
            #expect(github.status == 2)
            let annotation = try #require(github.standardOutput.split(separator: "\n").first { $0.hasPrefix("::error file=") })
            #expect(annotation.contains("Library 2.xcdatamodel/contents,line="))
            #expect(annotation.contains("[M221]"))
        }
    }

    /// The String attribute `name` (the first one so named) turned into Integer 64.
    static func changingToInteger(_ attribute: String, in text: String) -> (text: String, attribute: String)? {
        guard let start = text.range(of: #"<attribute name="\#(attribute)""#),
            let type = text.range(of: #"attributeType="String""#, range: start.upperBound..<text.endIndex)
        else { return nil }
        return (text.replacingCharacters(in: type, with: #"attributeType="Integer 64""#), attribute)
    }

    @Test func aVersionThatDropsDataOrCannotMigrateFailsTheGate() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Library.xcdatamodeld")
            try FileManager.default.copyItem(at: Corpus.packageRoot.appendingPathComponent(Self.library), to: bundle)
            let contents = bundle.appendingPathComponent("Library 3.xcdatamodel/contents")
            let edited = try #require(Self.changingToInteger("name", in: try String(contentsOf: contents, encoding: .utf8)))
            try edited.text.write(to: contents, atomically: true, encoding: .utf8)
            let run = try Modelc.run(["check", bundle.path])
            #expect(run.status == 2)
            #expect(run.standardOutput.contains("Library → Library 3: impossible"))
            #expect(run.standardError.contains("[M201]"))
            #expect(run.standardError.contains("fix-it:"))
        }
    }
}
