import Foundation
import Testing
import _ModelTestSupport

/// `modelc store create --configuration` and `store check --configuration` on CoreStore's test
/// model, whose configurations Config1 and Config2 hold one entity each.
struct StoreConfigurationCommandTests {
    static let model = "JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld"

    @Test(Corpus.required) func aStoreCreatedForAConfigurationChecksCleanForThatConfigurationOnly() throws {
        try withTemporaryDirectory { folder in
            let model = Corpus.path(Self.model)
            let path = folder.appendingPathComponent("Config2.sqlite").path
            #expect(try Modelc.run(["store", "create", "--model", model, "--configuration", "Config2", path]).status == 0)
            let clean = try Modelc.run(["store", "check", path, "--model", model, "--configuration", "Config2"])
            #expect(clean.status == 0)
            #expect(clean.standardOutput.contains("opens with the current version"))
            // Checked for every entity, Config1's table is missing.
            let whole = try Modelc.run(["store", "check", path, "--model", model, "--json"])
            #expect(whole.status == 2)
            #expect(whole.standardOutput.contains("\"incompatibleSchema\""))
            let unknown = folder.appendingPathComponent("Unknown.sqlite").path
            #expect(try Modelc.run(["store", "create", "--model", model, "--configuration", "Nothing", unknown]).status == 64)
            #expect(!FileManager.default.fileExists(atPath: unknown))
        }
    }
}
