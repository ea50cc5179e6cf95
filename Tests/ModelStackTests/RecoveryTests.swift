import Foundation
import GRDB
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// The recovery policy on damaged, locked and unwritable stores: what is moved, retried or
/// refused, and that the decision handler sees (and can veto) each action first.
@Suite(Corpus.required)
struct RecoveryTests {
    typealias Support = StackTestSupport

    /// A garbage file, and a real store cut in half, each with a `-wal` and `-shm`.
    enum Damage: String, CaseIterable, Sendable {
        case garbage, truncated

        func write(into folder: URL) throws -> String {
            let store = folder.appendingPathComponent("Books.sqlite").path
            switch self {
            case .garbage:
                try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: store))
            case .truncated:
                let bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path(Support.bookStore)))
                try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: store))
            }
            try Data("wal".utf8).write(to: URL(fileURLWithPath: store + "-wal"))
            try Data("shm".utf8).write(to: URL(fileURLWithPath: store + "-shm"))
            return store
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedStoreIsQuarantinedWithItsSidecarsAndReplaced(_ damage: Damage) async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try damage.write(into: folder)
        let before = try Support.files(in: folder)
        let container = try Support.container(Support.bookModel, store: store)
        let decisions = DecisionLog()
        container.decisionHandler = { decisions.append("\($0)".components(separatedBy: ":")[0]); return true }
        let reports = try await container.loadPersistentStores()
        let quarantined = try #require(reports[0].quarantinePath)
        #expect(reports[0].wasCreated)
        #expect(decisions.entries == ["quarantine \(store)", "create \(store) at 'Model3'"])
        for suffix in ["", "-wal", "-shm"] {
            let moved = try Data(contentsOf: URL(fileURLWithPath: quarantined + suffix))
            #expect(moved == before["Books.sqlite" + suffix], "\(suffix) moved aside, byte for byte")
        }
        #expect(URL(fileURLWithPath: quarantined).lastPathComponent.hasPrefix("Books.quarantined-"))
        #expect(StoreCheck.run(storeAt: store, bundle: container.model).error == nil, "a fresh store at the current version")
    }

    @Test func withQuarantineVetoedADamagedStoreFailsWith259Unchanged() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Damage.garbage.write(into: folder)
        let before = try Support.files(in: folder)
        let container = try Support.container(Support.bookModel, store: store)
        container.decisionHandler = { decision in
            if case .quarantine = decision { return false }
            return true
        }
        let error = try await #require(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        #expect(error.kind == .corrupted && error.code == 259)
        #expect(try Support.files(in: folder) == before)
    }

    @Test func aPolicyCannotQuarantineAnIncompatibleStore() {
        let policy = RecoveryPolicy(actions: [.incompatibleVersion: .quarantine, .missingSourceModel: .retry, .corrupted: .quarantine])
        #expect(policy.action(for: .incompatibleVersion) == .fail)
        #expect(policy.action(for: .missingSourceModel) == .fail)
        #expect(policy.action(for: .corrupted) == .quarantine)
        #expect(RecoveryPolicy.default.action(for: .locked) == .retry)
        #expect(RecoveryPolicy.failAlways.action(for: .corrupted) == .fail)
    }

    /// The lock is let go from the decision handler at the load's first retry, so the test does
    /// not depend on when a loaded test run schedules its own task: the load must have met the
    /// lock, retried, and then opened the store.
    @Test func aLockedStoreIsRetriedUntilItsLockIsReleased() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore(Corpus.path("larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite"), into: folder, as: "EasyLife.sqlite")
        let locker = try StoreLocker(store)
        let container = try Support.container(Support.otherModel, store: store) { $0.timeout = 60 }
        let retries = DecisionLog()
        container.decisionHandler = { decision in
            if case .retry = decision {
                if retries.entries.isEmpty { locker.stop() }
                retries.append("retry")
            }
            return true
        }
        let reports = try await container.loadPersistentStores()
        #expect(!retries.entries.isEmpty, "the load met the lock and retried")
        #expect(reports[0].retries == retries.entries.count)
    }

    @Test func aStoreLockedPastItsTimeoutFailsWithTheLockedClass() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore(Corpus.path("larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite"), into: folder, as: "EasyLife.sqlite")
        let locker = try StoreLocker(store)
        defer { locker.stop() }
        let container = try Support.container(Support.otherModel, store: store) { $0.timeout = 0.5 }
        let started = Date()
        let error = try await #require(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        #expect(error.kind == .locked && error.code == 134090)
        #expect(Date().timeIntervalSince(started) >= 0.4, "it waited for the timeout")
    }

    // A read-only folder (513, permissionDenied) is tested through `modelc store open`, which
    // loads with this container, run as an unprivileged user: root is not stopped by file
    // permissions, and the tests run as root in CI (StoreOpenCommandTests).
}
