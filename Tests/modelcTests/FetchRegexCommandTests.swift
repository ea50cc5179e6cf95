import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `modelc fetch` with a `MATCHES` the regular-expression engine gives up on: `((a+)+$)|(.*!)`
/// matches a title of forty `a`s and a `!` (its second alternative), but the engine stops in the
/// first. The fetch fails naming the pattern, where it used to find no row, with the code of a
/// fetch the store could not answer (256).
struct FetchRegexCommandTests {
    @Test func aMatchTheEngineGivesUpOnIsAFetchErrorNamingThePattern() throws {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.packagePath("Fixtures/Library-v3.sqlite"), into: folder)
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "UPDATE ZPUBLICATION SET ZTITLE = ? WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZPUBLICATION)", arguments: [String(repeating: "a", count: 40) + "!"])
            }
            try queue.close()
            let model = Corpus.packagePath("Models/Library.xcdatamodeld")
            let pattern = "((a+)+$)|(.*!)"
            for extra in [["--count"], []] {
                let run = try HostileRun.run(
                    ["fetch", path, "--model", model, "--entity", "Publication", "--predicate", "title MATCHES '\(pattern)'", "--json"] + extra, in: folder)
                #expect(run.status == 1, "\(run.standardOutput)")
                let (errorClass, code) = try run.error()
                #expect(errorClass == "fetchFailed" && code == "256")
                #expect(run.standardOutput.contains(pattern) && run.standardOutput.contains("gave up"))
            }
            let answered = try Modelc.run(["fetch", path, "--model", model, "--entity", "Publication", "--predicate", "title MATCHES 'a+!'", "--count", "--json"])
            #expect(try answered.json()["count"] as? Int == 1)
        }
    }
}
