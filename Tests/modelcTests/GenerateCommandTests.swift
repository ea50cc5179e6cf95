import Foundation
import Testing
import _ModelTestSupport

/// `modelc generate`, run as a built binary: the files it writes, its JSON, what it refuses.
struct GenerateCommandTests {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            <entity name="Folder" representedClassName="Folder" codeGenerationType="category">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
            </entity>
            <entity name="Note" representedClassName="Note" codeGenerationType="class">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            </entity>
            <entity name="Draft" representedClassName="Draft">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    @Test func writesEachEntitysFilesAndListsThemAsJSON() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Notes.xcdatamodel/contents", Self.contents, in: folder)
            let output = folder.appendingPathComponent("Generated").path
            let run = try Modelc.run(["generate", folder.appendingPathComponent("Notes.xcdatamodel").path, "-o", output, "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            let names = ["Folder+CoreDataProperties.swift", "Note+CoreDataClass.swift", "Note+CoreDataProperties.swift"]
            #expect(try run.json()["files"] as? [String] == names.map { "\(output)/\($0)" })
            #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == names)
            let note = try String(contentsOfFile: "\(output)/Note+CoreDataProperties.swift", encoding: .utf8)
            #expect(note.contains("public var folder: Folder? {"))
        }
    }

    /// `--api coredata` writes Xcode's text for `import CoreData`, `@NSManaged` renamed (Xcode's
    /// generated `Note+CoreDataProperties.swift` declares `@NSManaged public var folder: Folder?`
    /// and `@NSManaged public func addToNotes(_ value: Note)`); an unknown API is a usage error.
    @Test func theCoreDataAPIWritesManagedDeclarations() throws {
        try withTemporaryDirectory { folder in
            let model = try writeFile("Notes.xcdatamodel/contents", Self.contents, in: folder).deletingLastPathComponent().path
            let output = folder.appendingPathComponent("Generated").path
            let run = try Modelc.run(["generate", model, "-o", output, "--api", "coredata"])
            #expect(run.status == 0, "\(run.standardError)")
            let note = try String(contentsOfFile: "\(output)/Note+CoreDataProperties.swift", encoding: .utf8)
            #expect(note.contains("import CoreData\n"))
            #expect(note.contains("    @Managed public var folder: Folder?\n"))
            let folderFile = try String(contentsOfFile: "\(output)/Folder+CoreDataProperties.swift", encoding: .utf8)
            #expect(folderFile.contains("    @ManagedAccessor public func addToNotes(_ value: Note)\n"))
            #expect(try Modelc.run(["generate", model, "-o", output, "--api", "swiftdata"]).status == 64)
        }
    }

    @Test func anUnchangedFileIsNotRewritten() throws {
        try withTemporaryDirectory { folder in
            let model = try writeFile("Notes.xcdatamodel/contents", Self.contents, in: folder).deletingLastPathComponent().path
            let output = folder.appendingPathComponent("Generated").path
            #expect(try Modelc.run(["generate", model, "-o", output, "--single-file"]).status == 0)
            let file = "\(output)/Notes+CoreDataModel.swift"
            let past = Date(timeIntervalSince1970: 1_000_000)
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file)
            let run = try Modelc.run(["generate", model, "-o", output, "--single-file"])
            #expect(run.standardOutput == "generated \(file)\n")
            #expect(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date == past)
            #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["Notes+CoreDataModel.swift"])
        }
    }

    @Test func aCompiledModelIsRefused() throws {
        try withTemporaryDirectory { folder in
            try writeFile("Notes.xcdatamodel/contents", Self.contents, in: folder)
            let model = folder.appendingPathComponent("Notes.xcdatamodel").path
            #expect(try Modelc.run(["compile", model, "-o", folder.path]).status == 0)
            let run = try Modelc.run(["generate", folder.appendingPathComponent("Notes.mom").path, "-o", folder.path, "--json"])
            #expect(run.status == 64)
            let error = try #require(try run.json()["error"] as? [String: Any])
            #expect(error["class"] as? String == "usage")
            #expect(error["code"] as? String == "X013")
        }
    }

    @Test func aModelWithErrorsWritesNothing() throws {
        try withTemporaryDirectory { folder in
            let broken = Self.contents.replacingOccurrences(of: "destinationEntity=\"Folder\"", with: "destinationEntity=\"Folders\"")
            let model = try writeFile("Notes.xcdatamodel/contents", broken, in: folder).deletingLastPathComponent().path
            let output = folder.appendingPathComponent("Generated").path
            let run = try Modelc.run(["generate", model, "-o", output])
            #expect(run.status == 1)
            #expect(run.standardError.contains("error:"))
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
