import Foundation
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// A migration that runs out of disk space fails cleanly: SQLite rolls the transaction back and
/// the store keeps every byte. The disk is a real, small tmpfs, which needs root to mount.
@Suite(.enabled(if: Tmpfs.canMount, "mounting a tmpfs needs root"))
struct FullDiskTests {
    @Test func aFullDiskFailsTheMigrationAndLeavesTheStoreAsItWas() throws {
        try withTemporaryDirectory { folder in
            let base = try KillTests.makeStore(in: folder, journalMode: .delete)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: base)[.size] as? Int)
            let disk = folder.appendingPathComponent("disk")
            try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
            // Room for the store and a little more: not for the rewritten tables.
            #expect(Tmpfs.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size / 1024 + 512)k", "tmpfs", disk.path]))
            defer { Tmpfs.run("/bin/umount", [disk.path]) }
            let store = try MigrationTestSupport.copy(base, into: disk)
            let before = MigrationTestSupport.fileBytes(store)
            var options = Migrator.Options()
            options.makesBackup = false
            #expect { try Migrator.migrate(storeAt: store, bundle: try MigrationTestSupport.bundle(MigrationTestSupport.library), options: options) } throws: { error in
                guard let failure = error as? MigrationError else { return false }
                return failure.code == 134110 && failure.errorClass == .failed && failure.message.contains("SQLite error 13")
            }
            #expect(MigrationTestSupport.fileBytes(store) == before, "every byte as it was")
            #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
        }
    }
}

/// Mounting a small tmpfs, the real disk that fills up.
enum Tmpfs {
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-mount-probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: point) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", point.path]) else { return false }
        return run("/bin/umount", [point.path])
    }()

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? Spawn.run(process)) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
