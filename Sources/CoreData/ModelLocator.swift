import Foundation
import ModelCompiler
import ModelSchema

/// Finds a compiled model by name as `NSPersistentContainer(name:)` does, in the app's bundles.
enum ModelLocator {
    /// `<name>.momd`, else `<name>.mom`, in the first bundle holding one: the main bundle's
    /// resources, SwiftPM's `*.resources` bundles beside the executable, then every loaded bundle.
    private static func url(ofModelNamed name: String) -> URL? {
        for folder in folders() {
            for ext in ["momd", "mom"] {
                let url = folder.appendingPathComponent("\(name).\(ext)")
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// The folders searched, in order.
    private static func folders() -> [URL] {
        var folders = [URL]()
        if let resources = Bundle.main.resourceURL { folders.append(resources) }
        let executableFolder = Bundle.main.executableURL?.deletingLastPathComponent() ?? Bundle.main.bundleURL
        let beside = (try? FileManager.default.contentsOfDirectory(at: executableFolder, includingPropertiesForKeys: nil)) ?? []
        for bundle in beside.filter({ $0.pathExtension == "resources" }).sorted(by: { $0.path < $1.path }) {
            folders.append(bundle)
            folders.append(bundle.appendingPathComponent("Resources"))
        }
        for bundle in Bundle.allBundles {
            if let resources = bundle.resourceURL { folders.append(resources) }
            folders.append(bundle.bundleURL)
        }
        return folders
    }

    /// The compiled model named `name` in the app's bundles, or nil when there is none or it
    /// cannot be read.
    static func bundle(ofModelNamed name: String) -> ModelBundle? {
        guard let url = url(ofModelNamed: name) else { return nil }
        let read = ModelSources.read(anyAt: url.path)
        guard let bundle = read.bundle, bundle.currentVersion != nil, !read.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        return bundle
    }
}
