import ArgumentParser

/// The `modelc` command: Core Data's model toolchain on any OS.
@main
struct Modelc: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modelc",
        abstract: "Validate, compile and decompile Core Data models, compute their version hashes and work with their stores, on any OS.",
        discussion: """
            modelc reads the .xcdatamodeld bundles and .xcdatamodel folders that Xcode writes, \
            checks them as Xcode's model editor does, compiles them into the .momd bundles \
            Core Data loads, and computes the entity version hashes, \
            versionChecksum and NSStoreModelVersionHashesDigest exactly as Core Data does.

            Diagnostics use the compiler format path:line:column: severity: message [CODE], \
            which Xcode and editors understand.

            EXIT STATUS
              0   success
              1   errors were found in a model, or a command failed
              2   store check: the store does not open with the current version
              64  bad usage
            """,
        version: "0.1.0",
        subcommands: [
            ValidateCommand.self, HashCommand.self, CompileCommand.self, DecompileCommand.self, InspectCommand.self,
            StoreCommand.self, DiffCommand.self, MigrateCommand.self, CheckCommand.self,
        ]
    )

    /// Tunes the allocator, then parses the arguments and runs the command.
    static func main() {
        HeapTuning.apply()
        main(nil)
    }
}
