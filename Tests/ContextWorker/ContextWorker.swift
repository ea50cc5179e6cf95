import Foundation
import ModelObjects
import ModelStack

/// A second process for the object layer's two-process tests: it opens a store with a model
/// through a container, as an app does, and runs the commands it reads from standard input, one
/// per line, answering each with one JSON object per line on standard output.
///
/// `ContextWorker STORE MODEL [--history] [--remote]` (`--history`: persistent history tracking;
/// `--remote`: remote-change notifications). Commands, with object IDs as their URIs and values
/// as `key=value` (a date in seconds since 2001-01-01):
///
/// - `policy error|storeTrump|objectTrump|overwrite|rollback`: the context's merge policy;
/// - `insert ENTITY key=value…`, `get URI`, `set URI key=value…`, `delete URI`, `save`: one
///   context's work; `save` answers the saved inserts' IDs, or the error's code and conflicts;
/// - `watch`: prints `{"remoteChange": N}` (N the token's transaction, 0 without history) for
///   each remote-change notification from now on;
/// - `increment SECONDS CONTEXTS`: the counters' stress, ``CounterStress``;
/// - `offqueue fetch|read|release ENTITY`: uses the context from off its queue (`Session`), which
///   checked mode (`MODELC_CONCURRENCY_DEBUG=1`) reports for `fetch` and `read` (the fetch throws,
///   the read runs on the queue), and which ends the worker when `CONTEXT_WORKER_STOP_ON_VIOLATION`
///   is `1`, as an app that wants Core Data's stop sets its violation handler;
/// - `bulk ROWS`: saves ROWS new authors per transaction until killed, printing each commit;
/// - `photos BYTES`: saves a new photo of BYTES bytes per transaction, changing the one before
///   and deleting the oldest, until killed, printing each commit (external-data files).
@main
struct ContextWorker {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        let paths = arguments.filter { !$0.hasPrefix("--") }
        guard paths.count == 2 else {
            Output.line(["ok": false, "error": "usage: ContextWorker STORE MODEL [--history] [--remote]"])
            exit(64)
        }
        if ProcessInfo.processInfo.environment["CONTEXT_WORKER_STOP_ON_VIOLATION"] == "1" {
            ConcurrencyDebug.violationHandler = { violation in fatalError(violation.description) }
        }
        do {
            let container = try PersistentContainer(name: "Worker", model: URL(fileURLWithPath: paths[paths.startIndex + 1]))
            var description = StoreDescription(url: URL(fileURLWithPath: paths[paths.startIndex]))
            description.persistentHistoryTracking = arguments.contains("--history")
            description.postsRemoteChangeNotifications = arguments.contains("--remote")
            container.persistentStoreDescriptions = [description]
            try await container.loadPersistentStores()
            let session = Session(container: container)
            Output.line(["ok": true, "ready": ProcessInfo.processInfo.processIdentifier])
            while let line = readLine() {
                let words = line.split(separator: " ").map(String.init)
                guard let command = words.first else { continue }
                if command == "quit" { break }
                Output.line(session.run(command, Array(words.dropFirst())))
            }
        } catch {
            Output.line(["ok": false, "error": "\(error)"])
            exit(1)
        }
    }
}

/// The worker's answers, one JSON object per line, flushed at once (the tests read them live).
enum Output {
    private static let lock = NSLock()

    static func line(_ object: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        lock.withLock {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }
}
