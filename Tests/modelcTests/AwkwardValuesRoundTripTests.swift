import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `fetch --json` then `import` into an empty store writes back every column to the bit, for
/// the values a JSON number or text is easiest to get wrong with: dates that use all 52 bits of
/// their mantissa (past and future), a date one subnormal step after the reference date,
/// doubles at the ends of their range and subnormal, negative zeros, decimals of 38 digits and
/// a NaN decimal.
///
/// The values are written with SQL as Core Data's SQLite store holds them: dates as
/// `timeIntervalSinceReferenceDate` reals, decimals in a DECIMAL column (numeric affinity, so
/// a 38-digit text becomes the nearest real, and a NaN, which SQLite stores as NULL when bound
/// as a real, can only be the text `NaN`: see sqlite.org/datatype3.html, "Type Affinity").
struct AwkwardValuesRoundTripTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Sample" representedClassName="Sample" syncable="YES">
                <attribute name="when" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="real" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="amount" optional="YES" attributeType="Decimal"/>
            </entity>
        </model>
        """

    /// Rows of (date, double, decimal) as SQL literals.
    static let rows: [(String, String, String)] = [
        // 0x41C23456789ABCDF and 0xC1D23456789ABCDF: every mantissa bit used.
        ("\(Double(bitPattern: 0x41C2_3456_789A_BCDF))", "5e-324", "'12345678901234567890123456789012345678'"),
        ("\(Double(bitPattern: 0xC1D2_3456_789A_BCDF))", "1.7976931348623157e308", "'0.1234567890123456789012345678901234567'"),
        ("\(Double(bitPattern: 0x3FF0_0000_0000_0001))", "-1e308", "'NaN'"),
        ("1e-320", "2.2250738585072014e-308", "1.2345678901234568e37"),
        ("-0.5", "\(Double(bitPattern: 0x000F_FFFF_FFFF_FFFF))", "-0.000001"),
        // SQLite keeps a -0.0 of a REAL or NUMERIC column as the integer 0: so must the import.
        ("-0.0", "-0.0", "-0.0"),
    ]

    @Test func fetchThenImportWritesEveryColumnBackToTheBit() throws {
        try withTemporaryDirectory { folder in
            let model = try writeFile("Awkward.xcdatamodel/contents", Self.model, in: folder).deletingLastPathComponent().path
            let source = folder.appendingPathComponent("source.sqlite").path
            #expect(try Modelc.run(["store", "create", "--model", model, source]).status == 0)
            let queue = try DatabaseQueue(path: source)
            try queue.write { db in
                for (index, row) in Self.rows.enumerated() {
                    try db.execute(sql: "INSERT INTO ZSAMPLE (Z_PK, Z_ENT, Z_OPT, ZWHEN, ZREAL, ZAMOUNT) VALUES (\(index + 1), 1, 1, \(row.0), \(row.1), \(row.2))")
                }
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(Self.rows.count) WHERE Z_NAME = 'Sample'")
            }
            try queue.close()
            let fetched = try Modelc.run(["fetch", source, "--model", model, "--entity", "Sample", "--json"])
            #expect(fetched.status == 0, "\(fetched.standardError)")
            let file = folder.appendingPathComponent("objects.json")
            try Data(fetched.standardOutput.utf8).write(to: file)
            let target = folder.appendingPathComponent("target.sqlite").path
            let imported = try Modelc.run(["import", target, "--model", model, file.path])
            #expect(imported.status == 0, "\(imported.standardError)")
            let (before, after) = (try Self.columns(source), try Self.columns(target))
            #expect(before.count == Self.rows.count)
            #expect(before == after, "\(fetched.standardOutput)")
        }
    }

    /// Each row's columns as SQLite's type and value, reals by their bits.
    static func columns(_ store: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT ZWHEN, ZREAL, ZAMOUNT FROM ZSAMPLE ORDER BY Z_PK").map { row in
                (0..<3).map { index -> String in
                    let value: DatabaseValue = row[index]
                    switch value.storage {
                    case .double(let number): return "real \(String(number.bitPattern, radix: 16))"
                    case .int64(let number): return "integer \(number)"
                    case .string(let text): return "text \(text)"
                    case .null: return "null"
                    case .blob(let data): return "blob \(data.base64EncodedString())"
                    }
                }
            }
        }
    }
}
