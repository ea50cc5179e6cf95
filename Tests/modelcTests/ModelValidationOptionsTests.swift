import Foundation
import Testing
import _ModelTestSupport

/// momc's `--suppress-inverse-transient-error` on every command that reads a source model.
///
/// Real file: mogenerator's ponso sample model (rentzsch/mogenerator at 4b60823486591dd59ac50754d47e181772d540d0,
/// `contributed templates/Nikita Zhuk/ponso/sample project/PonsoTest/MyModel.xcdatamodeld`, an Xcode 3
/// `elements` model whose to-many relationships have transient inverses by design). Its
/// `ponso/generate.sh` builds it with `MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR=YES`; `modelc validate`
/// reports 16 S110 errors without the flag and none with it, and `hash` refused it outright.
/// ``ValidateCommandTests/transientInverseModel`` has the same relationship pair.
struct ModelValidationOptionsTests {
    /// S110 is momc's check alone: the compiled model loads, and its hashes include each side's
    /// transience as written (Apple: NSPropertyDescription.versionHash covers isTransient), so a
    /// model Xcode builds with the flag hashes, with or without the flag here.
    @Test func hashReadsAModelWithATransientInverseWithOrWithoutTheFlag() throws {
        try withTemporaryDirectory { folder in
            let path = try ValidateCommandTests().writeModel(ValidateCommandTests.transientInverseModel, in: folder)
            let plain = try Modelc.run(["hash", path, "--json"])
            #expect(plain.status == 0, "\(plain.standardError)")
            #expect(plain.standardError.contains(
                "warning: relationship 'employees' and its inverse 'department' must both be transient or both persistent [S110]"))
            #expect(plain.standardError.contains("MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR"))
            let flagged = try Modelc.run(["hash", "--suppress-inverse-transient-error", path, "--json"])
            #expect(flagged.status == 0)
            #expect(!flagged.standardError.contains("S110"))
            #expect(flagged.standardOutput == plain.standardOutput)
            #expect(flagged.standardOutput.contains("\"Employee\""))
        }
    }

    @Test func storeCommandsAndReadersTakeTheFlag() throws {
        try withTemporaryDirectory { folder in
            let model = try ValidateCommandTests().writeModel(ValidateCommandTests.transientInverseModel, in: folder)
            let store = folder.appendingPathComponent("Broken.sqlite").path
            let flag = "--suppress-inverse-transient-error"
            let created = try Modelc.run(["store", "create", "--model", model, flag, store])
            #expect(created.status == 0, "\(created.standardError)")
            for command in [
                ["inspect", flag, model], ["diff", flag, model, "--from", "Broken", "--to", "Broken"],
                ["store", "check", "--model", model, flag, store], ["store", "info", "--model", model, flag, store],
                ["fetch", store, "--model", model, flag, "--entity", "Department", "--json"],
            ] {
                let run = try Modelc.run(command)
                #expect(run.status == 0, "\(command): \(run.standardError)")
                #expect(!run.standardError.contains("S110"), "\(command)")
            }
            // history reads the model, then finds the store was made without history tracking.
            let history = try Modelc.run(["history", store, "--model", model, flag])
            #expect(history.standardError.contains("[noHistory, 134091]"), "\(history.standardError)")
        }
    }

    /// Every command that reads a source model offers the flag, with the same help.
    @Test func everyCommandThatValidatesDocumentsTheFlag() throws {
        for command in [
            ["validate"], ["compile"], ["hash"], ["inspect"], ["diff"], ["check"], ["generate"], ["migrate"],
            ["fetch"], ["import"], ["history"], ["decompile"],
            ["store", "create"], ["store", "info"], ["store", "open"], ["store", "check"],
        ] {
            let help = try Modelc.run(command + ["--help"])
            #expect(help.standardOutput.contains("--suppress-inverse-transient-error"), "\(command)")
            #expect(help.standardOutput.contains("MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR"), "\(command)")
        }
    }
}
