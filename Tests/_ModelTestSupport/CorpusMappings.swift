import Foundation

/// The mapping models of the corpus and the model bundles they were made for.
public enum CorpusMappings {
    /// Every `.xcmappingmodel` of the corpus, relative to its root, sorted.
    public static let all: [String] = {
        guard Corpus.isAvailable, let walker = FileManager.default.enumerator(atPath: Corpus.root.path) else { return [] }
        var found = [String]()
        while let item = walker.nextObject() as? String {
            guard item.hasSuffix(".xcmappingmodel") else { continue }
            found.append(item)
            walker.skipDescendants()
        }
        return found.sorted()
    }()

    /// The one mapping model whose bundle is in Xcode 3's format (`elements`/`layout`).
    public static let recipes = "thepost__iPhoneCoreDataRecipesMigration/Classes/MappingModel.xcmappingmodel"

    /// The version name a recorded model path ends with (`Model 2` for `…/Model 2.xcdatamodel`).
    public static func versionName(_ recorded: String) -> String {
        let last = recorded.split(separator: "/").last.map(String.init) ?? recorded
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : last
    }

    /// The absolute path of the corpus bundle a recorded model path (`sourcemodelpath`) names,
    /// looked for in the mapping model's project; the copy nearest the mapping model when a
    /// project has several.
    public static func bundle(recorded: String, near mapping: String) -> String? {
        let components = recorded.split(separator: "/").map(String.init)
        guard let name = components.last(where: { $0.hasSuffix(".xcdatamodeld") }) ?? components.last else { return nil }
        let project = String(mapping.split(separator: "/")[0])
        let matches = Corpus.modelPaths().filter { $0.hasPrefix(project + "/") && $0.hasSuffix("/" + name) }
        let folder = (mapping as NSString).deletingLastPathComponent
        return matches.max { shared($0, folder) < shared($1, folder) }.map(Corpus.path)
    }

    private static func shared(_ a: String, _ b: String) -> Int {
        zip(a.split(separator: "/"), b.split(separator: "/")).prefix { $0 == $1 }.count
    }
}
