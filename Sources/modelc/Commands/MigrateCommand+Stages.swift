import ArgumentParser
import Foundation
import ModelCompiler
import ModelMigration
import ModelSchema

/// `migrate --through V2,V3 --mapping PATH…`: stages, each through the mapping model of
/// `--mapping` whose entity hashes match it or inferred, run as one atomic chain by the library's
/// ``StagedMigrator``.
extension MigrateCommand {
    /// Runs the stages of `--through` to the destination, with the mapping models of `--mapping`.
    func migrateInStages(_ bundle: ModelBundle) throws {
        let found = MappingModelFinder.readAll(in: mappings)
        if !quiet && !json { DiagnosticPrinter.standardError.print(found.diagnostics) }
        guard let end = destination ?? bundle.currentVersion?.name else {
            throw CommandFailure(MigrationError(.unknownVersion, path: bundle.path, message: "the model has no current version"))
        }
        let plan = StagedMigrationPlan.chain(through: stages, to: end, mappingModels: found.models)
        var options = StagedMigrator.Options()
        options.dryRun = dryRun
        options.backupPath = backup
        options.makesBackup = !noBackup
        options.keepBackups = keepBackups
        options.allowsDataLoss = allowDataLoss
        options.configuration = configuration
        if !quiet && !json && isatty(STDERR_FILENO) != 0 {
            options.progress = { line in FileHandle.standardError.write(Data("\(line)\n".utf8)) }
        }
        let result: StagedMigrator.Result
        do {
            result = try StagedMigrator.migrate(storeAt: store, bundle: bundle, plan: plan, options: options)
        } catch let error as MigrationError {
            throw CommandFailure(error, exitCode: error.errorClass == .missingPolicy ? 2 : 1)
        }
        let report = StagedMigrationReport(result)
        if json {
            try JSONOutput.print(report)
        } else if !quiet {
            report.printText(showSQL: dryRun)
        }
        switch result.outcome {
        case .impossible, .refusedDataLoss: throw ExitCode(2)
        case .planned where result.risk != .safe: throw ExitCode(2)
        default: break
        }
    }
}
