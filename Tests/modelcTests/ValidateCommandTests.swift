import Foundation
import Testing
import _ModelTestSupport

/// `modelc validate`, run as a built binary.
struct ValidateCommandTests {
    static let brokenModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="count" attributeType="Integer 16" defaultValueString="70000" usesScalarValueType="YES"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
            </entity>
        </model>
        """

    /// Writes `xml` as the `contents` of `Broken.xcdatamodel` in `folder`; returns the model's path.
    func writeModel(_ xml: String, in folder: URL) throws -> String {
        try writeFile("Broken.xcdatamodel/contents", xml, in: folder).deletingLastPathComponent().path
    }

    @Test func theSampleModelIsValid() throws {
        let run = try Modelc.run(["validate", "Models/Library.xcdatamodeld"])
        #expect(run.status == 0)
        #expect(run.standardError.contains("0 errors"))
    }

    @Test func errorsArePrintedAsCompilerDiagnosticsAndExitOne() throws {
        try withTemporaryDirectory { folder in
            let path = try writeModel(Self.brokenModel, in: folder)
            let run = try Modelc.run(["validate", path])
            #expect(run.status == 1)
            #expect(run.standardError.contains("\(path)/contents:4:9: error: default value '70000' of attribute 'count' is not a valid Integer 16 [S116]"))
            #expect(run.standardError.contains("\(path)/contents:5:9: error: relationship 'folder' has unknown destination entity 'Folder' [S101]"))
            #expect(run.standardError.contains("\(path)/contents:5:9: warning: relationship 'folder' of 'Note' has no inverse [S107]"))
            #expect(run.standardError.contains("2 errors, 1 warning in 1 model"))
        }
    }

    @Test func jsonListsEveryDiagnosticWithItsPosition() throws {
        try withTemporaryDirectory { folder in
            let path = try writeModel(Self.brokenModel, in: folder)
            let run = try Modelc.run(["validate", "--json", path])
            #expect(run.status == 1)
            #expect(run.standardError.isEmpty)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            #expect(object["errorCount"] as? Int == 2)
            #expect(object["warningCount"] as? Int == 1)
            let items = try #require(object["diagnostics"] as? [[String: Any]])
            #expect(items.map { $0["code"] as? String } == ["S116", "S101", "S107"])
            #expect(items.first?["line"] as? Int == 4)
            #expect(items.first?["column"] as? Int == 9)
        }
    }

    @Test func malformedXMLGivesItsLineAndColumn() throws {
        try withTemporaryDirectory { folder in
            let path = try writeModel("<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n</model>\n", in: folder)
            let run = try Modelc.run(["validate", path])
            #expect(run.status == 1)
            #expect(run.standardError.contains("\(path)/contents:4:"))
            #expect(run.standardError.contains("[X002]"))
        }
    }

    @Test func anEntityExpansionBombIsRefusedQuickly() throws {
        try withTemporaryDirectory { folder in
            var entities = "<!ENTITY a0 \"lol\">\n"
            for level in 1...10 {
                entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">\n"
            }
            let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n\(entities)]>\n<model><entity name=\"&a10;\"/></model>\n"
            let path = try writeModel(xml, in: folder)
            let start = ContinuousClock.now
            let run = try Modelc.run(["validate", path])
            // A generous bound, for a loaded machine: expanding the bomb would take far longer
            // (and gigabytes); the timing itself is measured in Benchmarks/.
            #expect(ContinuousClock.now - start < .seconds(30))
            #expect(run.status == 1)
            #expect(run.standardError.contains("[X003]"))
        }
    }

    @Test func theReadmeExampleIsWhatValidatePrints() throws {
        let run = try Modelc.run(["validate", "Models/Broken.xcdatamodel"])
        #expect(run.status == 1)
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```\n" + run.standardError + "```\n"), "README's validate example is not: \(run.standardError)")
    }

    @Test func aMissingPathIsAnError() throws {
        let run = try Modelc.run(["validate", "Models/Nothing.xcdatamodeld"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("[X013]"))
    }

    @Test func badUsageExitsWith64() throws {
        let run = try Modelc.run(["validate"])
        #expect(run.status == 64)
        let unknown = try Modelc.run(["validate", "--no-such-flag", "Models/Library.xcdatamodeld"])
        #expect(unknown.status == 64)
    }

    @Test func helpDescribesTheCommand() throws {
        let run = try Modelc.run(["validate", "--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("USAGE: modelc validate"))
        #expect(run.standardOutput.contains("--json"))
    }
}

extension ValidateCommandTests {
    /// A persistent relationship whose inverse is transient, as mogenerator's ponso sample model
    /// has them by design (its README: inverses "should be always marked as 'transient'") and
    /// compiles with `MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR=YES` (rentzsch/mogenerator
    /// `ponso/generate.sh`).
    static let transientInverseModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Department" representedClassName="Department" syncable="YES">
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Employee" inverseName="department" inverseEntity="Employee"/>
            </entity>
            <entity name="Employee" representedClassName="Employee" syncable="YES">
                <relationship name="department" optional="YES" transient="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Department" inverseName="employees" inverseEntity="Department"/>
            </entity>
        </model>
        """

    @Test func suppressInverseTransientErrorLetsAModelWithATransientInverseCompile() throws {
        try withTemporaryDirectory { folder in
            let path = try writeModel(Self.transientInverseModel, in: folder)
            let refused = try Modelc.run(["validate", path])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains(
                "\(path)/contents:4:9: error: relationship 'employees' and its inverse 'department' must both be transient or both persistent [S110]"))
            let output = folder.appendingPathComponent("out").path
            #expect(try Modelc.run(["compile", path, "-o", output]).status == 1)
            #expect(!FileManager.default.fileExists(atPath: "\(output)/Broken.mom"))

            let allowed = try Modelc.run(["validate", "--suppress-inverse-transient-error", path])
            #expect(allowed.status == 0)
            #expect(allowed.standardError.contains("0 errors, 0 warnings in 1 model"))
            let compiled = try Modelc.run(["compile", "--suppress-inverse-transient-error", path, "-o", output])
            #expect(compiled.status == 0)
            // The compiled model keeps each side's transience as written.
            let recovered = folder.appendingPathComponent("recovered").path
            #expect(try Modelc.run(["decompile", "\(output)/Broken.mom", "-o", recovered]).status == 0)
            let xml = try String(contentsOfFile: "\(recovered)/Broken.xcdatamodel/contents", encoding: .utf8)
            #expect(xml.contains("<relationship name=\"department\" optional=\"YES\" transient=\"YES\""))
            #expect(xml.contains("<relationship name=\"employees\" optional=\"YES\" toMany=\"YES\""))
        }
    }
}
