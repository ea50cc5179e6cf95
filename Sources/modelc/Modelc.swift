import ArgumentParser
import Foundation
import ModelStore

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

            With --json, a command that fails prints one JSON object on standard output, \
            the same for every command: {"error":{"class","code","message","path","advice"}}, \
            with "diagnostics" when the model has errors.

            EXIT STATUS
              0   success
              1   errors were found in a model, or a command failed
              2   store check: the store does not open with the current version; diff and \
                  migrate: the migration cannot be inferred or would be unsafe
              64  bad usage (including a version name that is not in the bundle)
            """,
        version: "0.1.0",
        subcommands: [
            ValidateCommand.self, HashCommand.self, CompileCommand.self, DecompileCommand.self, InspectCommand.self,
            StoreCommand.self, DiffCommand.self, MigrateCommand.self, CheckCommand.self, FetchCommand.self, HistoryCommand.self, ImportCommand.self,
            GenerateCommand.self,
        ]
    )

    /// Tunes the allocator, then parses the arguments and runs the command. A store's or the
    /// file system's error that a command let through is printed in words with its class and
    /// code (as JSON with `--json`), never as `NSCocoaErrorDomain Code=…`.
    static func main() {
        HeapTuning.apply()
        var command: ParsableCommand
        do {
            command = try parseAsRoot(nil)
        } catch {
            // A command line that does not parse is a usage error, as JSON too with --json.
            guard CommandLine.arguments.contains("--json"), exitCode(for: error) == .validationFailure else { exit(withError: error) }
            report(CommandFailure.usage(.badCommandLine(message(for: error))))
        }
        do {
            try command.run()
        } catch let error as CommandFailure {
            report(error)
        } catch let error as StoreError {
            report(CommandFailure(error))
        } catch {
            guard (error as NSError).domain == NSCocoaErrorDomain else { exit(withError: error) }
            report(CommandFailure(fileError: error, path: ""))
        }
    }

    private static func report(_ failure: CommandFailure) -> Never {
        failure.print(json: CommandLine.arguments.contains("--json"))
        exit(withError: ExitCode(failure.exitCode))
    }
}
