import ArgumentParser
import Foundation
import ModelCompiler
import ModelMigration
import ModelSchema
import ModelStore

/// `migrate --mapping`: the step through a custom mapping model whose hashes match, run by the
/// migration manager; nil when no mapping model matches (the step is then inferred).
extension MigrateCommand {
    /// Runs the step through the first matching mapping model of `--mapping`; returns false when
    /// none matches (or the store is already at the destination), so the caller infers.
    func migrateThroughMappingModel(_ bundle: ModelBundle) throws -> Bool {
        guard !mappings.isEmpty else { return false }
        let metadata: StoreMetadata
        do {
            metadata = try StoreMetadata.read(at: store)
        } catch let error as StoreError {
            throw CommandFailure(error)
        }
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
        guard let source = match.matched, let target = destination.flatMap(bundle.version(named:)) ?? bundle.currentVersion,
            source.name != target.name
        else { return false }
        let found = MappingModelFinder.find(in: mappings, from: source, to: target)
        if !quiet && !json { DiagnosticPrinter.standardError.print(found.diagnostics) }
        guard let mappingModel = found.model else {
            if !quiet && !json {
                FileHandle.standardError.write(Data("note: no mapping model of --mapping matches \(source.name) → \(target.name) (\(found.candidates.count) looked at); the step is inferred\n".utf8))
            }
            return false
        }
        var options = MigrationManager.Options()
        options.destination = target.name
        options.dryRun = dryRun
        options.backupPath = backup
        options.makesBackup = !noBackup
        options.keepBackups = keepBackups
        options.configuration = configuration
        let progress = ProgressLine(enabled: !quiet && !json && isatty(STDERR_FILENO) != 0, step: "\(source.name) → \(target.name)")
        options.progress = { mapping, done, total in progress.show(mapping, done: done, total: total) }
        let result: MigrationManager.Result
        do {
            result = try MigrationManager(bundle: bundle, mappingModel: mappingModel).migrate(storeAt: store, options: options)
        } catch let error as MigrationError {
            progress.finish()
            throw CommandFailure(error, exitCode: error.errorClass == .missingPolicy ? 2 : 1)
        }
        progress.finish()
        let report = MappingMigrationReport(
            result, reason: "its entity hashes match \(source.name) → \(target.name)", candidates: found.candidates)
        if json {
            try JSONOutput.print(report)
        } else if !quiet {
            report.printText()
        }
        return true
    }
}

extension CommandFailure {
    /// A migration failure with an exit status of its own (2 for a policy nobody registered).
    init(_ error: MigrationError, exitCode: Int32) {
        self.init(
            errorClass: "\(error.errorClass)", code: String(error.code), message: error.message, path: error.path, advice: error.advice,
            exitCode: exitCode)
    }
}

/// One progress bar on standard error for a step run by the migration manager: the entity
/// mapping, instances done of all, the rate and the time left, redrawn in place.
final class ProgressLine: @unchecked Sendable {
    let enabled: Bool
    let step: String
    private let start = Date()
    private var drawn = false

    init(enabled: Bool, step: String) {
        self.enabled = enabled
        self.step = step
    }

    /// Redraws the bar.
    func show(_ mapping: String, done: Int, total: Int) {
        guard enabled else { return }
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed
        let left = rate > 0 && total > done ? Int(Double(total - done) / rate) : 0
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let bar = String(repeating: "#", count: Int(fraction * 20)) + String(repeating: ".", count: 20 - Int(fraction * 20))
        FileHandle.standardError.write(Data("\r\(step) \(mapping) [\(bar)] \(done)/\(total) \(Int(rate))/s \(left)s left\u{1B}[K".utf8))
        drawn = true
    }

    /// Ends the bar's line.
    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
