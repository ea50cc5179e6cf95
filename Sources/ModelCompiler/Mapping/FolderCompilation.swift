import Foundation
import ModelSchema

/// Compiles every model and mapping model under a folder, as Xcode's build compiles a target's
/// `.xcdatamodeld`, `.xcdatamodel` and `.xcmappingmodel` files into its bundle.
public enum FolderCompilation {
    /// Whether `path` is a plain folder (not itself a model or mapping model) to search for models.
    public static func isFolderOfModels(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let ext = URL(fileURLWithPath: trimmed).pathExtension
        return FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) && isDirectory.boolValue
            && !["xcdatamodeld", "xcdatamodel", "xcmappingmodel"].contains(ext)
    }

    /// The models and mapping models under `folder`, sorted by path.
    public static func sources(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found = [String]()
        while let item = walker.nextObject() as? String {
            let ext = URL(fileURLWithPath: item).pathExtension
            if ["xcdatamodeld", "xcdatamodel", "xcmappingmodel"].contains(ext) {
                found.append("\(folder)/\(item)")
                walker.skipDescendants()
            }
        }
        return found.sorted()
    }

    /// Compiles each model and mapping model under `folder` into `outputDirectory`; one that has
    /// errors is not written, the others are.
    public static func compile(
        folderAt folder: String, into outputDirectory: String, options: ModelCompilation.Options = .init()
    ) throws -> [ModelCompilation.Result] {
        try sources(in: folder.hasSuffix("/") ? String(folder.dropLast()) : folder).map { source in
            source.hasSuffix(".xcmappingmodel")
                ? try MappingCompilation.compile(mappingAt: source, into: outputDirectory)
                : try ModelCompilation.compile(modelAt: source, into: outputDirectory, options: options)
        }
    }
}
