import Foundation
import Testing

/// The real Core Data files in `../shared/corpus` (beside the package), read in place and never
/// copied into the project. Set `MODELC_CORPUS` to use another location.
public enum Corpus {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The absolute path of a file of the package (a fixture, a model), so that tests read the
    /// same file whatever directory they run from.
    public static func packagePath(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// The corpus folder.
    public static let root: URL = {
        if let custom = ProcessInfo.processInfo.environment["MODELC_CORPUS"] {
            return URL(fileURLWithPath: custom)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").standardizedFileURL
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
