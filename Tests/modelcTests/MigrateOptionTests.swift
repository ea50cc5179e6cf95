import Foundation
import Testing
import _ModelTestSupport

/// The options and exit statuses of `modelc migrate` and `modelc diff` that the README promises,
/// each run through the binary: `--to`, the default backup name, `--quiet`, `--allow-data-loss`,
/// exit 2 when refused or impossible (M201–M205), exit 1 when the run fails.
@Suite(.serialized)
struct MigrateOptionTests {
    static let library = Corpus.packagePath("Models/Library.xcdatamodeld")
    static let fixture = Corpus.packagePath("Fixtures/Library-v1.sqlite")

    static let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        + #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift">"#

    // MARK: - Options on the fixtures

    @Test func toStopsAtTheVersionNamed() throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Self.fixture, into: folder, as: "Library.sqlite")
            let run = try Modelc.run(["migrate", store, "--model", Self.library, "--to", "Library 2", "--no-backup"])
            #expect(run.status == 0, "\(run.standardError)")
            let info = try Modelc.run(["store", "info", store, "--model", Self.library, "--json"]).json()
            #expect(info["matchedVersion"] as? String == "Library 2")
            let unknown = try Modelc.run(["migrate", store, "--model", Self.library, "--to", "Library 9", "--no-backup"])
            #expect(unknown.status == 64, "an unknown version is a usage error")
            #expect(unknown.standardError.contains("'Library 9'") && unknown.standardError.contains("[X015]"))
        }
    }

    /// A command line that does not parse gives, with `--json`, the same JSON error object as
    /// any other failure (class `usage`, X020) and exit 64, for every command; `--help` still
    /// prints help.
    @Test(arguments: [
        ["migrate", "Store.sqlite", "--model", "M.xcdatamodeld", "--keep-backups", "0", "--json"],
        ["migrate", "Store.sqlite", "--model", "M.xcdatamodeld", "--keep-backups", "two", "--json"],
        ["hash", "--json"],
        ["store", "info", "--json", "--no-such-option"],
        ["validate", "--json"],
    ])
    func aCommandLineThatDoesNotParseIsAJSONUsageError(_ arguments: [String]) throws {
        let run = try Modelc.run(arguments)
        #expect(run.status == 64, "\(run.standardError)")
        let error = try #require(try run.json()["error"] as? [String: Any], "\(run.standardOutput)")
        #expect(error["class"] as? String == "usage" && error["code"] as? String == "X020")
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(try Modelc.run([arguments[0], "--help"]).status == 0)
    }

    /// Without `--backup`, the backup goes beside the store as `NAME.pre-VERSION-TIME.EXT` and
    /// holds the store as it was.
    @Test func theDefaultBackupGoesBesideTheStore() throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Self.fixture, into: folder, as: "Library.sqlite")
            let run = try Modelc.run(["migrate", store, "--model", Self.library, "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let backups = files.filter { $0.hasPrefix("Library.pre-Library-") && $0.hasSuffix(".sqlite") }
            #expect(backups.count == 1, "\(files)")
            let backup = try #require(backups.first)
            let stamp = backup.dropFirst("Library.pre-Library-".count).dropLast(".sqlite".count)
            #expect(stamp.count >= 8 && stamp.allSatisfy { $0.isNumber || $0.isLetter || $0 == "-" }, "time stamp '\(stamp)'")
            #expect(try run.json()["backup"] as? String == folder.appendingPathComponent(backup).path)
            let info = try Modelc.run(["store", "info", folder.appendingPathComponent(backup).path, "--model", Self.library, "--json"]).json()
            #expect(info["matchedVersion"] as? String == "Library")
        }
    }

    /// `--quiet` prints nothing on success, on a terminal or not; without it the result is printed.
    @Test func quietPrintsNothingButErrors() throws {
        try withTemporaryDirectory { folder in
            let loud = try copyStore(Self.fixture, into: folder, as: "Loud.sqlite")
            let plain = try Modelc.run(["migrate", loud, "--model", Self.library, "--no-backup"])
            #expect(plain.standardOutput.contains("migrated from 'Library' to 'Library 3'"))

            let quiet = try copyStore(Self.fixture, into: folder, as: "Quiet.sqlite")
            let run = try Modelc.run(["migrate", quiet, "--model", Self.library, "--no-backup", "--quiet"])
            #expect(run.status == 0)
            #expect(run.standardOutput.isEmpty && run.standardError.isEmpty, "\(run.standardOutput)\(run.standardError)")

            let terminal = try copyStore(Self.fixture, into: folder, as: "Terminal.sqlite")
            let text = try Modelc.onATerminal("\(Modelc.executable.path) migrate \(terminal) --model '\(Self.library)' --no-backup --quiet")
            #expect(text.status == 0)
            #expect(text.output.isEmpty, "\(text.output)")
            let info = try Modelc.run(["store", "info", terminal, "--model", Self.library, "--json"]).json()
            #expect(info["matchedVersion"] as? String == "Library 3")

            let failing = try Modelc.run(["migrate", folder.appendingPathComponent("None.sqlite").path, "--model", Self.library, "--quiet"])
            #expect(failing.status == 1)
            #expect(failing.standardError.contains("[notFound, 260]"), "\(failing.standardError)")
        }
    }

    // MARK: - Refusal, data loss, failure

    static let notes = header + """

            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="tag" optional="YES" attributeType="String"/>
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// A bundle `Notes.xcdatamodeld` whose only version is `Notes`, and a store of it with two
    /// notes that share their tag; then the bundle gains `Notes 2` (with `second` as its
    /// contents) as its current version. Returns the bundle's and the store's paths.
    static func notesStore(becoming second: String, in folder: URL) throws -> (model: String, store: String) {
        let bundle = folder.appendingPathComponent("Notes.xcdatamodeld")
        try writeFile("Notes.xcdatamodel/contents", notes, in: bundle)
        let store = folder.appendingPathComponent("Notes.sqlite").path
        let create = try Modelc.run(["store", "create", "--model", bundle.path, "--journal-mode", "delete", store])
        try #require(create.status == 0, "\(create.standardError)")
        try SQLiteProbe.execute(
            """
            INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTAG, ZTEXT) VALUES (1, 1, 1, 'home', 'milk'), (2, 1, 1, 'home', 'bread');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'Note';
            """, on: store)
        try writeFile("Notes 2.xcdatamodel/contents", second, in: bundle)
        try writeFile(".xccurrentversion", ModelFiles.xccurrentversion("Notes 2"), in: bundle)
        return (bundle.path, store)
    }

    /// `Notes 2` without the `tag` attribute: the migration drops two stored values.
    static let withoutTag = header + """

            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    @Test func aMigrationThatDropsDataIsRefusedUnlessAllowed() throws {
        try withTemporaryDirectory { folder in
            let (model, store) = try Self.notesStore(becoming: Self.withoutTag, in: folder)
            let bytes = try #require(FileManager.default.contents(atPath: store))
            let plan = try Modelc.run(["migrate", store, "--model", model, "--dry-run", "--json"])
            #expect(plan.status == 2)
            let planned = try plan.json()
            #expect(planned["risk"] as? String == "dropsData")
            let dropped = (planned["steps"] as? [[String: Any]] ?? []).flatMap { $0["dropped"] as? [[String: Any]] ?? [] }
            #expect(dropped.map { "\($0["entity"] ?? "") \($0["property"] ?? "") \($0["count"] ?? "")" } == ["Note tag 2"])

            let refused = try Modelc.run(["migrate", store, "--model", model, "--no-backup"])
            #expect(refused.status == 2, "\(refused.standardOutput)\(refused.standardError)")
            #expect((refused.standardOutput + refused.standardError).contains("--allow-data-loss"))
            #expect(FileManager.default.contents(atPath: store) == bytes, "a refused run changes nothing")

            let allowed = try Modelc.run(["migrate", store, "--model", model, "--no-backup", "--allow-data-loss"])
            #expect(allowed.status == 0, "\(allowed.standardError)")
            let after = try SQLiteProbe.read(store)
            #expect(after.rows["ZNOTE"] == 2)
            #expect(try Modelc.run(["store", "check", store, "--model", model]).status == 0)
        }
    }

    /// `Notes 2` makes `tag` unique, which the two notes violate: the run fails and the store
    /// keeps every byte.
    static let uniqueTag = header + """

            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="tag" optional="YES" attributeType="String"/>
                <attribute name="text" optional="YES" attributeType="String"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="tag"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
        </model>
        """

    @Test func aFailedMigrationExitsOneAndChangesNothing() throws {
        try withTemporaryDirectory { folder in
            let (model, store) = try Self.notesStore(becoming: Self.uniqueTag, in: folder)
            let bytes = try #require(FileManager.default.contents(atPath: store))
            let run = try Modelc.run(["migrate", store, "--model", model, "--no-backup"])
            #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardError.contains("migration failed, the store is unchanged"), "\(run.standardError)")
            #expect(FileManager.default.contents(atPath: store) == bytes)
            #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
        }
    }

    // MARK: - diff

    static let zoo = header + """

            <entity name="Animal" representedClassName="Animal" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="weight" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Boat" representedClassName="Boat" syncable="YES">
                <attribute name="length" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Car" representedClassName="Car" syncable="YES">
                <attribute name="plate" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Keeper" representedClassName="Keeper" syncable="YES">
                <relationship name="vehicle" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Car"/>
            </entity>
            <entity name="Plant" representedClassName="Plant" syncable="YES">
                <attribute name="height" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    /// Every reason an inference fails, once each, at a marker.
    static let zoo2 = MarkedText(header + """

            <entity name="Animal" representedClassName="Animal" parentEntity="LivingThing" syncable="YES">
                1️⃣<attribute name="name" attributeType="String"/>
                2️⃣<attribute name="weight" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            </entity>
            <entity name="Boat" representedClassName="Boat" syncable="YES">
                <attribute name="length" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Car" representedClassName="Car" syncable="YES">
                <attribute name="plate" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Keeper" representedClassName="Keeper" syncable="YES">
                4️⃣<relationship name="home" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Boat"/>
                5️⃣<relationship name="vehicle" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Boat"/>
            </entity>
            <entity name="LivingThing" representedClassName="LivingThing" isAbstract="YES" syncable="YES"/>
            3️⃣<entity name="Plant" representedClassName="Plant" parentEntity="LivingThing" syncable="YES">
                <attribute name="height" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            </entity>
        </model>
        """)

    @Test func diffExitsTwoAndReportsEachReasonWhereItIs() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Zoo.xcdatamodeld")
            try writeFile("Zoo.xcdatamodel/contents", Self.zoo, in: bundle)
            let contents = try writeFile("Zoo 2.xcdatamodel/contents", Self.zoo2.text, in: bundle).path
            try writeFile(".xccurrentversion", ModelFiles.xccurrentversion("Zoo 2"), in: bundle)
            let run = try Modelc.run(["diff", bundle.path, "--from", "Zoo"])
            #expect(run.status == 2, "\(run.standardOutput)\(run.standardError)")
            for (marker, code) in [("1️⃣", "M202"), ("2️⃣", "M201"), ("3️⃣", "M203"), ("4️⃣", "M204")] {
                let location = try #require(Self.zoo2.location(of: marker))
                let prefix = "\(contents):\(location.line):\(location.column): error: "
                let line = run.standardError.split(separator: "\n").first { $0.hasPrefix(prefix) && $0.hasSuffix("[\(code)]") }
                #expect(line != nil, "\(code) at \(location): \(run.standardError)")
            }
            // 5️⃣ is retargeted to another entity: Core Data maps it by name (M205 is retired).
            let retargeted = try #require(Self.zoo2.location(of: "5️⃣"))
            let atRetargeted = run.standardError.split(separator: "\n").filter { $0.hasPrefix("\(contents):\(retargeted.line):") }
            #expect(!atRetargeted.contains { $0.contains("[M2") }, "\(run.standardError)")
            let report = try Modelc.run(["diff", bundle.path, "--from", "Zoo", "--to", "Zoo 2", "--json"])
            #expect(report.status == 2)
            #expect(try report.json()["possible"] as? Bool == false)
        }
    }
}
