import Foundation

/// Runs the built `modelc` binary as a user would, capturing its output and exit status.
public enum Modelc {
    /// What one run of the command printed and how it ended.
    public struct Run: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String

        /// Standard output read as a JSON object; throws when it is not one.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any] else {
                throw CocoaError(.propertyListReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "not a JSON object: \(standardOutput.prefix(200)) \(standardError.prefix(400))"])
            }
            return object
        }
    }

    /// The `modelc` the tests run: the one `MODELC_BINARY` names when it is set (so a test can be
    /// shown to fail against a broken build), else the one SwiftPM built next to the test bundle.
    public static var executable: URL {
        if let custom = ProcessInfo.processInfo.environment["MODELC_BINARY"], !custom.isEmpty {
            return URL(fileURLWithPath: custom)
        }
        return builtProduct("modelc")
    }

    /// The executable `name` SwiftPM built next to the test bundle (a test target that depends on
    /// an executable target gets it built), else the one in `.build/debug`.
    public static func builtProduct(_ name: String) -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for folder in candidates {
            let binary = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: binary.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return binary
            }
        }
        return Corpus.packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// Starts a run of the binary for each argument list at once and waits for all of them;
    /// returns their exit statuses and outputs, in the lists' order.
    public static func runAtOnce(_ argumentLists: [[String]]) throws -> [(status: Int32, output: String, error: String)] {
        let runs = try argumentLists.map { arguments in
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Spawn.pipe(), error = try ErrorFile()
            process.standardOutput = output
            process.standardError = error.handle
            return (process, output, error)
        }
        for (process, _, _) in runs { try Spawn.run(process) }
        return runs.map { process, output, error in
            let out = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: out, as: UTF8.self), error.text())
        }
    }

    /// Runs `modelc` with the arguments, from the package root, and waits for it to end.
    /// `wrapper` is a command that runs `modelc` for the test, such as `setpriv` to run it as
    /// another user.
    @discardableResult
    public static func run(_ arguments: [String], in directory: URL = Corpus.packageRoot, wrapper: [String] = []) throws -> Run {
        let process = Process()
        if let tool = wrapper.first {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = Array(wrapper.dropFirst()) + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Spawn.pipe(), error = try ErrorFile()
        process.standardOutput = output
        process.standardError = error.handle
        try Spawn.run(process)
        // The output is read before waiting, so that a large one cannot block the child.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self), standardError: error.text())
    }

    /// A file that takes a run's standard error: a second pipe read after the first could fill
    /// (64 KB of warnings) and block the child while the test waits for its output to end.
    private struct ErrorFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-stderr-\(UUID().uuidString)")
        let handle: FileHandle

        init() throws {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
            handle = try FileHandle(forWritingTo: url)
        }

        /// What the run wrote, once it has ended; the file is removed.
        func text() -> String {
            try? handle.close()
            defer { try? FileManager.default.removeItem(at: url) }
            return String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
        }
    }

    /// Runs a shell command under `script`, so that its output is a terminal.
    public static func onATerminal(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = Corpus.packageRoot
        let output = Spawn.pipe()
        process.standardOutput = output
        try Spawn.run(process)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// A fresh temporary folder, for models written by a test, which removes it with a `defer`
    /// (or use ``withTemporaryDirectory(_:)``).
    public static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
