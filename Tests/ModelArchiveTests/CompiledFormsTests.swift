import Foundation
import ModelArchive
import ModelSchema
import Testing
import _ModelTestSupport

/// The forms compiled models were shipped in: XML property lists instead of binary ones, a
/// `.mom` or `.momd` inside a plain `.app`, an `.omo` beside the `.mom`. Each reads to the same
/// model as Xcode's binary `.momd` it was made from.
@Suite(Corpus.required)
struct CompiledFormsTests {
    static let momd = "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd"
    static let omo = "richardpiazza__TranslationCatalog@2735875/Sources/TranslationCatalogCoreData/PrecompiledResources/CatalogModel_3.momd_precompiled/CatalogModel.omo"

    /// Xcode's bundle with every plist rewritten as XML (keyed-archive references as `CF$UID`
    /// dictionaries, as Apple's XML form writes them) and an `.omo` beside the current `.mom`.
    func xmlCopy(in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("SampleModel3.momd")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Corpus.path(Self.momd)) where !name.hasSuffix(".omo") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpus.path("\(Self.momd)/\(name)"))))
            let xml = XMLPropertyList.text(of: try BinaryPropertyListReader.decode(bytes))
            try Data(xml.utf8).write(to: copy.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(atPath: Corpus.path(Self.omo), toPath: copy.appendingPathComponent("SampleModel3.omo").path)
        return copy
    }

    @Test func xmlPlistsAndAnOmoReadAsXcodesBinaryBundle() throws {
        let binary = try CompiledModelReader.read(at: Corpus.path(Self.momd))
        try withTemporaryDirectory { folder in
            let copy = try xmlCopy(in: folder)
            let xml = try CompiledModelReader.read(at: copy.path)
            #expect(xml.versions.map(\.name) == binary.versions.map(\.name))
            for (a, b) in zip(xml.versions, binary.versions) {
                #expect(VersionHasher(a).entityHashes() == VersionHasher(b).entityHashes())
                #expect(a.entities == b.entities)
            }
            #expect(xml.currentVersionName == "SampleModel3")
            #expect(!xml.currentVersionIsInferred)
        }
    }

    @Test func aModelInsideAnAppBundleIsFound() throws {
        try withTemporaryDirectory { folder in
            let app = folder.appendingPathComponent("Sample.app")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            // A loose .mom with an .omo beside it, as pre-momd apps shipped their one model.
            try FileManager.default.copyItem(
                atPath: Corpus.path("\(Self.momd)/SampleModel3_v2.mom"), toPath: app.appendingPathComponent("Sample.mom").path)
            try FileManager.default.copyItem(atPath: Corpus.path(Self.omo), toPath: app.appendingPathComponent("Sample.omo").path)
            let bundle = try CompiledModelReader.read(at: app.path)
            #expect(!bundle.isVersioned)
            #expect(bundle.versions.map(\.name) == ["Sample"])
            let apple = try CompiledModelReader.read(at: Corpus.path("\(Self.momd)/SampleModel3_v2.mom"))
            #expect(VersionHasher(bundle.versions[0]).entityHashes() == VersionHasher(apple.versions[0]).entityHashes())
            // A second model makes the choice ambiguous: an error that lists both.
            try FileManager.default.copyItem(
                atPath: Corpus.path("\(Self.momd)/SampleModel3.mom"), toPath: app.appendingPathComponent("Other.mom").path)
            #expect { try CompiledModelReader.read(at: app.path) } throws: { "\($0)".contains("Other.mom, Sample.mom") }
        }
    }
}

/// Writes a property list in Apple's XML form, for tests that need the XML twin of a real file.
enum XMLPropertyList {
    static func text(of value: PropertyListValue) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(element(value))
        </plist>
        """
    }

    private static func element(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text):
            "<string>\(text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;"))</string>"
        case .integer(let number): "<integer>\(number)</integer>"
        case .real(let number): "<real>\(number)</real>"
        case .bool(let flag): flag ? "<true/>" : "<false/>"
        case .date(let seconds):
            "<date>\(ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: seconds)))</date>"
        case .data(let bytes): "<data>\(Data(bytes).base64EncodedString())</data>"
        case .uid(let number): "<dict><key>CF$UID</key><integer>\(number)</integer></dict>"
        case .array(let items), .set(let items): "<array>\(items.map(element).joined())</array>"
        case .dictionary(let entries):
            "<dict>\(entries.map { "<key>\($0.key)</key>\(element($0.value))" }.joined())</dict>"
        }
    }
}
