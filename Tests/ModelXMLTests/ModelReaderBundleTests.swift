import Foundation
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Reading bundles from disk: legacy versions, `.xccurrentversion`, empty bundles and the order
/// of versions.
struct ModelReaderBundleTests {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="A" representedClassName="A" syncable="YES">
                <attribute name="x" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// `.xccurrentversion` as Xcode writes it, DTD reference included.
    static func currentVersion(_ folder: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(folder)</string>
        </dict>
        </plist>
        """
    }

    /// Placeholder bytes for the binary files of an Xcode 3 model.
    static let legacyBytes = "bplist00\u{0}\u{1}"

    @Test func aBundleWhoseOnlyVersionIsPreXcode4IsReportedNotCrashedOn() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Old.xcdatamodeld/Old.xcdatamodel/elements", Self.legacyBytes, in: folder)
            try writeFile("Old.xcdatamodeld/Old.xcdatamodel/layout", Self.legacyBytes, in: folder)
            let bundle = folder.appendingPathComponent("Old.xcdatamodeld").path
            let result = ModelReader().read(at: bundle)
            #expect(result.bundle == nil)
            #expect(result.diagnostics.map(\.code) == ["X004"])
            #expect(result.diagnostics.first?.severity == .error)
            #expect(result.diagnostics.first?.path == "\(bundle)/Old.xcdatamodel/elements")
            #expect(result.diagnostics.first?.message.contains("'Old'") == true)
        }
    }

    @Test func aPreXcode4VersionBesideModernOnesIsReportedAndTheOthersRead() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Notes.xcdatamodeld/Notes.xcdatamodel/elements", Self.legacyBytes, in: folder)
            try writeFile("Notes.xcdatamodeld/Notes 2.xcdatamodel/contents", Self.contents, in: folder)
            let result = ModelReader().read(at: folder.appendingPathComponent("Notes.xcdatamodeld").path)
            #expect(result.diagnostics.map(\.code) == ["X004"])
            #expect(result.bundle?.versions.map(\.name) == ["Notes 2"])
        }
    }

    @Test func aLonePreXcode4VersionIsReported() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Old.xcdatamodel/elements", Self.legacyBytes, in: folder)
            let result = ModelReader().read(at: folder.appendingPathComponent("Old.xcdatamodel").path)
            #expect(result.bundle == nil)
            #expect(result.diagnostics.map(\.code) == ["X004"])
        }
    }

    @Test func aCurrentVersionThatIsNotInTheBundleIsWarnedAboutAndTheLastVersionUsed() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Model.xcdatamodeld/Model.xcdatamodel/contents", Self.contents, in: folder)
            try writeFile("Model.xcdatamodeld/Model 2.xcdatamodel/contents", Self.contents, in: folder)
            let current = Self.currentVersion("Model 3.xcdatamodel")
            try writeFile("Model.xcdatamodeld/.xccurrentversion", current, in: folder)
            let path = folder.appendingPathComponent("Model.xcdatamodeld").path
            let result = ModelReader().read(at: path)
            let diagnostic = try #require(result.diagnostics.first)
            #expect(result.diagnostics.count == 1)
            #expect(diagnostic.code == "X010")
            #expect(diagnostic.severity == .warning)
            #expect(diagnostic.path == "\(path)/.xccurrentversion")
            #expect(diagnostic.message.contains("'Model 3'"))
            #expect(diagnostic.message.contains("'Model 2'"))
            #expect(result.bundle?.currentVersionName == "Model 2")
        }
    }

    @Test func theCurrentVersionIsTheOneXccurrentversionNames() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Model.xcdatamodeld/Model.xcdatamodel/contents", Self.contents, in: folder)
            try writeFile("Model.xcdatamodeld/Model 2.xcdatamodel/contents", Self.contents, in: folder)
            try writeFile("Model.xcdatamodeld/.xccurrentversion", Self.currentVersion("Model.xcdatamodel"), in: folder)
            let result = ModelReader().read(at: folder.appendingPathComponent("Model.xcdatamodeld").path)
            #expect(result.diagnostics.isEmpty)
            #expect(result.bundle?.currentVersionName == "Model")
        }
    }

    @Test func aBundleWithNoVersionsIsAnError() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Empty.xcdatamodeld/.xccurrentversion", Self.currentVersion("Empty.xcdatamodel"), in: folder)
            try writeFile("Empty.xcdatamodeld/README", "not a version", in: folder)
            let path = folder.appendingPathComponent("Empty.xcdatamodeld").path
            let result = ModelReader().read(at: path)
            #expect(result.bundle == nil)
            #expect(result.diagnostics.map(\.code) == ["X011"])
            #expect(result.diagnostics.first?.severity == .error)
            #expect(result.diagnostics.first?.path == path)
        }
    }

    @Test func versionsAreSortedAsFinderSortsThem() throws {
        try withTemporaryDirectory { folder in
            for name in ["Model 10", "model 3", "Model", "Model 2", "Model 9"] {
                try writeFile("Model.xcdatamodeld/\(name).xcdatamodel/contents", Self.contents, in: folder)
            }
            let result = ModelReader().read(at: folder.appendingPathComponent("Model.xcdatamodeld").path)
            #expect(result.diagnostics.isEmpty)
            let bundle = try #require(result.bundle)
            #expect(bundle.versions.map(\.name) == ["Model", "Model 2", "model 3", "Model 9", "Model 10"])
            #expect(bundle.currentVersionName == "Model 10")
        }
    }
}
