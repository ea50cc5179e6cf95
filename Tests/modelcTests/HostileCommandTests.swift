import Foundation
import Testing
import _ModelTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Models `validate` rejects, stores that are not files and misused options, run through the
/// built `modelc`: every command that computes from a model validates it first, and every
/// failure is one JSON error object with a class and a code, in bounded time, touching nothing.
@Suite(.serialized)
struct HostileCommandTests {
    static let library = Corpus.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path
    static let fixture = Corpus.packageRoot.appendingPathComponent("Fixtures/Library-v1.sqlite").path

    /// Models with one kind of error each, and the code it must be reported with.
    static let invalidModels: [(code: String, entities: String)] = [
        ("S104", """
            <entity name="Item" representedClassName="Item" syncable="YES"/>
            <entity name="Item" representedClassName="Item" syncable="YES"/>
            """),
        ("S101", """
            <entity name="Item" representedClassName="Item" syncable="YES">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Nobody"/>
            </entity>
            """),
        ("S121", """
            <entity name="Bad Name" representedClassName="Item" syncable="YES"/>
            """),
        ("S127", """
            <fetchRequest name="Broken" entity="Item" predicateString="name == == 1"/>
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            """),
        ("S129", """
            <entity name="TAG" representedClassName="TAG" syncable="YES"/>
            <entity name="Tag" representedClassName="Tag" syncable="YES"/>
            """),
    ]

    @Test(arguments: invalidModels.map(\.code))
    func everyCommandThatComputesFromAModelRefusesOneWithErrors(code: String) throws {
        let entities = try #require(Self.invalidModels.first { $0.code == code }?.entities)
        try withTemporaryDirectory { folder in
            try writeFile("Bad.xcdatamodeld/Bad.xcdatamodel/contents", HostileModelTests.model(entities), in: folder)
            let commands: [[String]] = [
                ["hash", "Bad.xcdatamodeld", "--json"],
                ["inspect", "Bad.xcdatamodeld", "--json"],
                ["diff", "Bad.xcdatamodeld", "--from", "Bad", "--json"],
                ["store", "create", "--model", "Bad.xcdatamodeld", "New.sqlite", "--json"],
                ["store", "info", Self.fixture, "--model", "Bad.xcdatamodeld", "--json"],
            ]
            for command in commands {
                let run = try HostileRun.run(command, in: folder)
                #expect(run.status == 1, "\(command): \(run.standardError)")
                #expect(try run.error() == ("invalidModel", code), "\(command)")
                #expect(try run.diagnosticCodes().contains(code), "\(command)")
            }
            let validate = try HostileRun.run(["validate", "Bad.xcdatamodeld", "--json"], in: folder)
            #expect(validate.status == 1)
            #expect(try validate.diagnosticCodes().contains(code))
        }
    }

    // MARK: - Stores that are not files

    @Test func aFIFOAsAStoreOrBesideOneIsRefusedWithoutBlocking() throws {
        try withTemporaryDirectory { folder in
            #expect(mkfifo(folder.appendingPathComponent("Pipe.sqlite").path, 0o644) == 0)
            let info = try HostileRun.run(["store", "info", "Pipe.sqlite", "--json"], in: folder, limit: 10)
            #expect(info.status == 1)
            #expect(try info.error() == ("notRegularFile", "256"))
            let check = try HostileRun.run(["store", "check", "Pipe.sqlite", "--model", Self.library, "--json"], in: folder, limit: 10)
            #expect(check.status == 2)
            let report = try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any]
            #expect(report?["class"] as? String == "notRegularFile")
            #expect(report?["code"] as? Int == 256)

            try FileManager.default.copyItem(atPath: Self.fixture, toPath: folder.appendingPathComponent("Store.sqlite").path)
            #expect(mkfifo(folder.appendingPathComponent("Store.sqlite-wal").path, 0o644) == 0)
            let beside = try HostileRun.run(["store", "info", "Store.sqlite", "--json"], in: folder, limit: 10)
            #expect(beside.status == 1)
            #expect(try beside.error() == ("notRegularFile", "256"))
        }
    }

    @Test func aHotRollbackJournalIsClassifiedAndKept() throws {
        try withTemporaryDirectory { folder in
            let store = folder.appendingPathComponent("Store.sqlite").path
            try FileManager.default.copyItem(atPath: Self.fixture, toPath: store)
            // A writer killed mid-transaction, after it spilled pages into the main file.
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            writer.arguments = [
                "python3", "-c",
                "import sqlite3, sys, os\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.execute('PRAGMA cache_size=1')\nc.execute('BEGIN')\nc.execute('CREATE TABLE HALF(x)')\nfor i in range(3000): c.execute('INSERT INTO HALF VALUES(randomblob(500))')\nos._exit(0)",
                store,
            ]
            try Spawn.run(writer)
            writer.waitUntilExit()
            #expect(FileManager.default.fileExists(atPath: store + "-journal"))
            let check = try HostileRun.run(["store", "check", "Store.sqlite", "--model", Self.library, "--json"], in: folder)
            #expect(check.status == 2)
            let report = try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any]
            #expect(report?["class"] as? String == "hotJournal")
            #expect(report?["code"] as? Int == 134080)
            // Read from a private copy with its journal, the store shows its last committed state.
            let info = try HostileRun.run(["store", "info", "Store.sqlite", "--json"], in: folder)
            #expect(info.status == 0)
            #expect(!info.standardOutput.contains("HALF"), "the interrupted write shows: \(info.standardOutput)")
        }
    }

    // MARK: - Options and messages

    @Test func anUnknownModelVersionIsAUsageErrorWithItsCode() throws {
        try withTemporaryDirectory { folder in
            for command in [["hash", Self.library], ["store", "create", "--model", Self.library, "New.sqlite"]] {
                let run = try HostileRun.run(command + ["--model-version", "Library 9", "--json"], in: folder)
                #expect(run.status == 64, "\(command)")
                #expect(try run.error() == ("usage", "X015"), "\(command)")
            }
        }
    }

    @Test func versionIsOnlyArgumentParsersFlag() throws {
        for command in [["hash"], ["store", "create"]] {
            let help = try Modelc.run(command + ["--help"])
            #expect(help.standardOutput.contains("--model-version"), "\(command)")
            #expect(help.standardOutput.components(separatedBy: "--version").count == 2, "\(command): \(help.standardOutput)")
        }
    }

    @Test func compilingOntoAFileSaysSoInWordsWithClassAndCode() throws {
        try withTemporaryDirectory { folder in
            try writeFile("taken", "not a folder", in: folder)
            let run = try HostileRun.run(["compile", Self.library, "-o", "taken"], in: folder)
            #expect(run.status == 1)
            #expect(run.standardError.contains("[alreadyExists, 516]"), "\(run.standardError)")
            #expect(!run.standardError.contains("NSCocoaErrorDomain"))
        }
    }

    @Test func theTopLevelHelpSaysWhichCommandsExitTwo() throws {
        let help = try Modelc.run(["--help"])
        #expect(help.standardOutput.contains("diff and"))
        #expect(help.standardOutput.contains("migrate: the migration cannot be inferred"))
    }

    @Test func oneReasonIsOneReason() throws {
        try withTemporaryDirectory { folder in
            let attribute = { (type: String) in
                HostileModelTests.model("""
                    <entity name="Item" representedClassName="Item" syncable="YES">
                        <attribute name="size" optional="YES" attributeType="\(type)"/>
                    </entity>
                    """)
            }
            try writeFile("Two.xcdatamodeld/V1.xcdatamodel/contents", attribute("String"), in: folder)
            try writeFile("Two.xcdatamodeld/V2.xcdatamodel/contents", attribute("Date"), in: folder)
            let run = try HostileRun.run(["diff", "Two.xcdatamodeld", "--from", "V1", "--to", "V2"], in: folder)
            #expect(run.status == 2)
            #expect(run.standardOutput.contains("(1 reason)"), "\(run.standardOutput)")
        }
    }
}
