import Foundation
import Testing
import _ModelTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of the built `modelc` on hostile input: bounded in time (the process is killed past
/// the bound, so a hang fails the test instead of blocking the suite), with the folder it works
/// in fingerprinted before and after, so that a test can assert nothing was modified or created.
struct HostileRun {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var seconds: Double
    var killed: Bool

    /// Runs `modelc arguments` in `folder`, killing it after `limit` seconds, and checks that
    /// the folder's files are exactly as they were.
    static func run(
        _ arguments: [String], in folder: URL, limit: Double = 30, wrapper: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> HostileRun {
        let before = try fingerprint(folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrapper.first ?? Modelc.executable.path)
        process.arguments = wrapper.isEmpty ? arguments : wrapper.dropFirst() + [Modelc.executable.path] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-out-\(UUID().uuidString)")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let start = Date()
        try Spawn.run(process)
        var killed = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > limit {
                kill(process.processIdentifier, SIGKILL)
                killed = true
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        let run = HostileRun(
            status: process.terminationStatus,
            standardOutput: String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self),
            standardError: String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self),
            seconds: seconds, killed: killed)
        #expect(!killed, "modelc \(arguments.joined(separator: " ")) ran past \(limit) s", sourceLocation: sourceLocation)
        #expect(process.terminationReason == .exit, "modelc died of a signal: \(run.standardError)", sourceLocation: sourceLocation)
        #expect(try fingerprint(folder) == before, "modelc modified or created files in \(folder.path)", sourceLocation: sourceLocation)
        return run
    }

    /// The JSON error object `--json` prints on failure: `{"error":{"class","code",…}}`.
    func error(sourceLocation: SourceLocation = #_sourceLocation) throws -> (errorClass: String, code: String) {
        let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any]
        let error = try #require(object?["error"] as? [String: Any], "no error object in: \(standardOutput)", sourceLocation: sourceLocation)
        return (error["class"] as? String ?? "", error["code"] as? String ?? "")
    }

    /// The diagnostic codes `validate --json` (or an error object's `diagnostics`) lists.
    func diagnosticCodes() throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any]
        let items = object?["diagnostics"] as? [[String: Any]] ?? []
        return items.compactMap { $0["code"] as? String }
    }

    /// A file's type, size, modification time and, for a regular file, bytes.
    struct Entry: Equatable {
        var description: String
        var bytes: Data?
    }

    /// Every file and folder under `folder` (FIFOs are listed, never opened).
    static func fingerprint(_ folder: URL) throws -> [String: Entry] {
        var result = [String: Entry]()
        let manager = FileManager.default
        guard let paths = manager.subpaths(atPath: folder.path) else { return result }
        for relative in paths {
            let path = folder.appendingPathComponent(relative).path
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            #if canImport(Glibc)
            let modified = "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
            #else
            let modified = "\(status.st_mtimespec.tv_sec).\(status.st_mtimespec.tv_nsec)"
            #endif
            let isRegular = status.st_mode & S_IFMT == S_IFREG
            result[relative] = Entry(
                description: "mode \(status.st_mode) size \(status.st_size) modified \(modified)",
                bytes: isRegular ? manager.contents(atPath: path) : nil)
        }
        return result
    }
}
