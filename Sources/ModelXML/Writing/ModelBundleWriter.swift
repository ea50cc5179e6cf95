import Foundation
import ModelSchema

/// Writes a model to disk as Xcode lays it out: a `.xcdatamodeld` folder with
/// `.xccurrentversion` and one `Version.xcdatamodel/contents` per version, or a lone
/// `.xcdatamodel` folder.
public enum ModelBundleWriter {
    /// Writes `bundle` into `directory`; returns the path of what was written.
    @discardableResult
    public static func write(_ bundle: ModelBundle, into directory: String) throws -> String {
        let manager = FileManager.default
        if !bundle.isVersioned, let version = bundle.versions.first {
            let folder = "\(directory)/\(version.name).xcdatamodel"
            try writeVersion(version, folder: folder)
            return folder
        }
        let root = "\(directory)/\(bundle.name).xcdatamodeld"
        try manager.createDirectory(atPath: root, withIntermediateDirectories: true)
        for version in bundle.versions {
            try writeVersion(version, folder: "\(root)/\(version.name).xcdatamodel")
        }
        // An inferred current version was never named: writing none keeps a round trip exact.
        if let current = bundle.currentVersionName, !bundle.currentVersionIsInferred {
            try currentVersionPlist(current).write(toFile: "\(root)/.xccurrentversion", atomically: true, encoding: .utf8)
        }
        return root
    }

    private static func writeVersion(_ version: ModelVersion, folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ModelXMLWriter.contents(of: version).write(toFile: "\(folder)/contents", atomically: true, encoding: .utf8)
    }

    static func currentVersionPlist(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(XMLText.escape(name)).xcdatamodel</string>
        </dict>
        </plist>

        """
    }
}
