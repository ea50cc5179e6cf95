import Foundation
import _ModelTestSupport

/// A running `ContextWorker` (Tests/ContextWorker): a second process on a store, driven by
/// commands on its standard input. Its answers (lines with `ok`) and its events (remote changes,
/// bulk commits) are read by a thread of their own and waited for with a timeout, so that a
/// worker that hangs fails the test instead of hanging it.
final class WorkerProcess: @unchecked Sendable {
    /// What a test waited for (the worker's answer, an event, a notification) did not come in time.
    struct Timeout: Error, CustomStringConvertible {
        var waitingFor: String
        var description: String { "timed out waiting for \(waitingFor)" }
    }

    private let process = Process()
    private let input = Spawn.pipe()
    private let output = Spawn.pipe()
    /// The worker's standard error, when kept (else it goes nowhere, and cannot fill up a pipe).
    private let errors: Pipe?
    private let lock = NSCondition()
    private var answers: [[String: Any]] = []
    private var events: [[String: Any]] = []
    private var ended = false

    /// Starts a worker on `store` with `model` (and `environment` on top of this process's, and
    /// its standard error kept for ``ending()`` when `environment` is given) and waits until it
    /// has loaded the store.
    init(store: URL, model: String, history: Bool = true, remote: Bool = false, environment: [String: String] = [:]) throws {
        errors = environment.isEmpty ? nil : Spawn.pipe()
        process.executableURL = Modelc.builtProduct("ContextWorker")
        process.arguments = [store.path, model] + (history ? ["--history"] : []) + (remote ? ["--remote"] : [])
        // A worker that crashes ends at once: Swift's backtracer, which it would start, inherits
        // the descriptor Foundation learns of the worker's end from and holds it while it
        // symbolicates (minutes for a sanitized build), so the worker would stay unreaped and a
        // test waiting for its end would hold one of the test pool's threads all that time.
        process.environment = ProcessInfo.processInfo.environment
            .merging(["SWIFT_BACKTRACE": "enable=no"]) { _, own in own }
            .merging(environment) { _, own in own }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors ?? FileHandle.nullDevice
        try Spawn.run(process)
        let reading = Thread { [self] in readLines() }
        reading.start()
        let ready = try answer(for: "loading the store", timeout: 60)
        guard ready["ok"] as? Bool == true else { throw Timeout(waitingFor: "loading the store: \(ready)") }
    }

    /// Sends `command` and returns the worker's answer to it.
    @discardableResult
    func send(_ command: String, timeout: TimeInterval = 60) throws -> [String: Any] {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        return try answer(for: command, timeout: timeout)
    }

    /// Sends `command` without waiting for the answer; take it later with ``answer(for:timeout:)``.
    func start(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// The next answer.
    func answer(for command: String, timeout: TimeInterval = 60) throws -> [String: Any] {
        try take(from: \.answers, waitingFor: command, timeout: timeout)
    }

    /// The next event (a line without `ok`).
    func event(timeout: TimeInterval = 30) throws -> [String: Any] {
        try take(from: \.events, waitingFor: "an event", timeout: timeout)
    }

    /// Kills the worker with SIGKILL and waits for it to end.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the worker to end by itself (a crash); whether it was stopped by a signal, and
    /// what it wrote on its standard error.
    func ending() -> (signaled: Bool, errors: String) {
        process.waitUntilExit()
        let written = errors?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        return (process.terminationReason == .uncaughtSignal, String(decoding: written, as: UTF8.self))
    }

    /// Ends the worker: `quit`, then waits.
    func finish() {
        guard process.isRunning else { return }
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill() }
    }

    private func take(from queue: ReferenceWritableKeyPath<WorkerProcess, [[String: Any]]>, waitingFor: String, timeout: TimeInterval) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while self[keyPath: queue].isEmpty {
            guard !ended, lock.wait(until: deadline) else {
                if !self[keyPath: queue].isEmpty { break }
                throw Timeout(waitingFor: waitingFor)
            }
        }
        return self[keyPath: queue].removeFirst()
    }

    private func readLines() {
        var pending = Data()
        let handle = output.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else { continue }
                lock.lock()
                if object["ok"] != nil { answers.append(object) } else { events.append(object) }
                lock.broadcast()
                lock.unlock()
            }
        }
        lock.lock()
        ended = true
        lock.broadcast()
        lock.unlock()
    }
}
