import Foundation
import ModelCompiler

/// The tests' model, compiled once per test process to where an app's build puts its compiled
/// model: `Notes.momd` in a SwiftPM resource bundle beside the executable, where
/// `NSPersistentContainer(name: "Notes")` looks. (The build plugin cannot compile it at build
/// time here: a test target of the package that builds `modelc` would link the tool twice.)
enum NotesModel {
    /// Compiles the model unless a process did already; true once `Notes.momd` is in place.
    static let isInstalled: Bool = {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let bundle = executable.deletingLastPathComponent().appendingPathComponent("modelc_CoreDataTestsModels.resources", isDirectory: true)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Notes.xcdatamodeld").path
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("NotesModel-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: staging) }
        guard let compiled = try? ModelCompilation.compile(modelAt: source, into: staging).outputPath else { return false }
        try? FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let target = bundle.appendingPathComponent("Notes.momd")
        try? FileManager.default.removeItem(at: target)
        try? FileManager.default.moveItem(at: URL(fileURLWithPath: compiled), to: target)
        return FileManager.default.fileExists(atPath: target.appendingPathComponent("VersionInfo.plist").path)
    }()
}
