import Foundation
import Testing

/// The real Core Data files in `../shared/corpus` (beside the package), never copied into the
/// project: each test process reads a private copy of them outside it (``root``). Set
/// `MODELC_CORPUS` to use another location.
public enum Corpus {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The absolute path of a file of the package (a fixture, a model), so that tests read the
    /// same file whatever directory they run from.
    public static func packagePath(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// Where the corpus is: `../shared/corpus` beside the package, or `MODELC_CORPUS`.
    public static let source: URL = {
        if let custom = ProcessInfo.processInfo.environment["MODELC_CORPUS"] {
            return URL(fileURLWithPath: custom)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").standardizedFileURL
    }()

    /// The corpus folder the tests read: a copy of ``source`` made once per test process (about
    /// 35 MB, a fraction of a second) and removed when it exits, so that no test, and no command
    /// a test runs, can change a file the tests judge by (SQLite writes a WAL store's `-shm` even
    /// for a read-only reader, and the connection that closes last checkpoints the `-wal` into
    /// the store and deletes it).
    public static let root: URL = {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source.appendingPathComponent("SOURCES.md").path) else { return source }
        let copy = manager.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString.prefix(8))")
        // cp(1) copies folders without write bits too; then each is made writable by its owner,
        // so that the copy can be removed.
        for (tool, arguments) in [("/bin/cp", ["-R", source.path, copy.path]), ("/bin/chmod", ["-R", "u+w", copy.path])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            do {
                try Spawn.run(process)
                process.waitUntilExit()
            } catch {
                fatalError("cannot run \(tool) to copy the corpus from \(source.path): \(error)")
            }
            guard process.terminationStatus == 0 else { fatalError("\(tool) \(arguments) failed with status \(process.terminationStatus)") }
        }
        atexit { try? FileManager.default.removeItem(at: Corpus.root) }
        return copy
    }()

    /// Whether the corpus is present; tests that need it are disabled, saying so, when it is not.
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("SOURCES.md").path)
    }

    public static let absenceNote: String = "../shared/corpus is absent: corpus tests are disabled"

    /// Whether the tests run under CI (`CI=true`), where a corpus test that skips is a failure.
    public static let isCI: Bool = ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")

    /// The trait of every test that reads the corpus: locally it is skipped, saying why, when the
    /// corpus is absent; under CI it runs anyway and fails on the missing files.
    public static var required: ConditionTrait {
        .enabled(if: isAvailable || isCI, Comment(rawValue: absenceNote))
    }

    /// The absolute path of a file or folder given relative to the corpus root.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// Every model in the corpus: each `.xcdatamodeld` bundle, and each `.xcdatamodel` outside one,
    /// relative to the corpus root, sorted.
    public static func modelPaths() -> [String] {
        find { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
    }

    /// The Xcode-compiled model bundles of the corpus (`*.momd`, and `*.momd_precompiled` as
    /// SwiftPM packages commit them), relative to the corpus root, sorted.
    public static func compiledModels() -> [String] {
        find { $0.hasSuffix(".momd") || $0.hasSuffix(".momd_precompiled") }
    }

    /// The Xcode-compiled mapping models of the corpus (`*.cdm`, `*.cdm_precompiled`), sorted.
    public static func compiledMappingModels() -> [String] {
        find { $0.hasSuffix(".cdm") || $0.hasSuffix(".cdm_precompiled") }
    }

    /// The paths under the corpus root that `matches` accepts, not looking inside them.
    private static func find(_ matches: (String) -> Bool) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found = [String]()
        while let item = walker.nextObject() as? String {
            guard matches(item) else { continue }
            found.append(item)
            walker.skipDescendants()
        }
        return found.sorted()
    }
}
