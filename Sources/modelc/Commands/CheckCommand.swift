import ArgumentParser
import Foundation
import ModelMigration
import ModelSchema

/// `modelc check`: the CI gate before shipping a model version: does every shipped version
/// still migrate to the current one, and was any of them edited in place?
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that every shipped version of a model migrates to the current version.",
        discussion: """
            For every version of the bundle (or every version recorded in --lock), infers the \
            direct step to the current version, as Core Data migrates a store of that version, \
            and reports: safe, drops data (what, M220) or impossible (why, M201–M204, with a \
            fix-it). There is no store here, so the verdicts are those for a store with rows: \
            "drops data" is what the change drops from existing rows, and an added required \
            value is impossible (a store whose rows all have the value, or an empty table, \
            migrates; 'modelc migrate --dry-run' decides that on the store).

            --write-lock FILE records the hashes of the bundle's versions (the ones that have \
            shipped) with their entities' and properties' hashes. A later --lock FILE checks \
            those versions and fails when one was edited in place (M221, naming the entity and \
            property that changed) or removed (M222): stores it made could no longer be opened.

            --format github prints GitHub Actions annotations \
            (::error file=…,line=…,col=…::message) on the model files.

            JSON form: {"current", "versions": [{"version", "risk", "diagnostics": [...]}], \
            "lock": [...diagnostics], "errorCount", "warningCount"}.

            EXIT STATUS
              0   every version migrates safely
              2   a version drops data or cannot migrate, or a shipped version was edited
              1   the model or lock file could not be read
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, github
    }

    @Argument(help: "A .xcdatamodeld bundle.", completion: .file())
    var model: String

    @Option(help: "A lock file from --write-lock: check the versions it records, and that none was edited.", completion: .file())
    var lock: String?

    @Option(help: "Record the hashes of the bundle's versions in this lock file.", completion: .file())
    var writeLock: String?

    @Option(help: "Output format: text (compiler diagnostics) or github (Actions annotations).")
    var format: Format = .text

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    /// Reads the lock, writes one if asked, checks every version and prints the verdicts.
    func run() throws {
        let bundle = try ModelLoading.read(model, options: modelValidation.validation)
        var lockDiagnostics = [Diagnostic]()
        var names: [String]?
        if let lock {
            let recorded = try readLock(lock)
            lockDiagnostics = recorded.editedVersions(in: bundle)
            names = recorded.versions.map(\.name)
        }
        if let writeLock {
            let data = try Self.encoder.encode(VersionLock(bundle: bundle))
            do {
                try data.write(to: URL(fileURLWithPath: writeLock), options: .atomic)
            } catch {
                throw ValidationError("cannot write \(writeLock): \(error.localizedDescription)")
            }
        }
        let verdicts = ReleaseCheck.run(bundle: bundle, versions: names)
        let report = CheckReport(current: bundle.currentVersionName ?? "", verdicts: verdicts, lock: lockDiagnostics)
        if json {
            try JSONOutput.print(report.json)
        } else if format == .github {
            report.printAnnotations()
        } else {
            DiagnosticPrinter.standardError.print(lockDiagnostics + verdicts.flatMap(\.diagnostics))
            report.printText()
        }
        if !report.passes { throw ExitCode(2) }
    }

    /// The lock file at `path`; an unreadable one is reported and exits 1.
    private func readLock(_ path: String) throws -> VersionLock {
        do {
            return try JSONDecoder().decode(VersionLock.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            FileHandle.standardError.write(Data("\(path): error: not a modelc lock file: \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
