import Foundation

/// The real Core Data files in `../shared/corpus` (beside the package), read in place and never
/// copied into the project. Set `MODELC_CORPUS` to use another location.
public enum Corpus {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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

    /// The absolute path of a file or folder given relative to the corpus root.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// Every model in the corpus: each `.xcdatamodeld` bundle, and each `.xcdatamodel` outside one,
    /// relative to the corpus root, sorted.
    public static func modelPaths() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found = [String]()
        while let item = walker.nextObject() as? String {
            if item.hasSuffix(".xcdatamodeld") {
                found.append(item)
                walker.skipDescendants()
            } else if item.hasSuffix(".xcdatamodel") {
                found.append(item)
                walker.skipDescendants()
            }
        }
        return found.sorted()
    }
}
