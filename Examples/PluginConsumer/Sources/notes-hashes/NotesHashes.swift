import Foundation
import ModelArchive
import ModelSchema
import NotesModel

/// Prints the version hashes of the `Notes.momd` the build plugin put in the resource bundle, in
/// the layout of `modelc hash`, so that the two can be compared line for line.
@main
struct NotesHashes {
    static func main() throws {
        guard let url = NotesModel.compiledModelURL else {
            FileHandle.standardError.write(Data("error: Notes.momd is not in the NotesModel bundle\n".utf8))
            exit(1)
        }
        let bundle = try CompiledModelReader.read(at: url.path)
        for (index, version) in bundle.versions.enumerated() {
            if index > 0 { print() }
            let hasher = VersionHasher(version)
            let hashes = hasher.entityHashes()
            print("\(version.name)\(version.name == bundle.currentVersionName ? " (current)" : "")")
            print("  versionChecksum  \(hasher.versionChecksum(hashes))")
            print("  hashesDigest     \(hasher.hashesDigest(hashes))")
            let width = hashes.keys.map(\.count).max() ?? 0
            for name in hashes.keys.sorted() {
                print("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(hashes[name]!.hex)")
            }
        }
    }
}
