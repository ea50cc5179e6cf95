import Foundation
import GRDB
import ModelObjects
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// A fetch reads the common pairs of SQLite storage class and attribute type straight from the
/// statement (an integer in an Integer 64 column, a real or a whole number in a date column, text
/// in a string column): every pair must give the value, of the same Swift type, that the checked
/// conversion every other pair takes gives. SQLite keeps any storage class in any column (a store
/// written by other code, a whole number of seconds that a TIMESTAMP column's affinity turned into
/// an integer), so each column of an attribute of each type kept as bits, and a string's, is
/// given values of every class.
struct RowDecodingTests {
    /// The values written into every column of one row each, as SQL literals.
    static let literals = [
        "NULL", "42", "-7", "70000", "9223372036854775807", "0", "2.5", "-0.5", "1e300", "3.0", "'17'", "'2.5'", "'abc'", "''", "X'00FF'",
    ]
    /// The Gauge model's attributes and their columns.
    static let attributes: [(name: String, type: AttributeType)] = [
        ("wide", .integer64), ("middle", .integer32), ("narrow", .integer16), ("on", .boolean), ("ratio", .double), ("weight", .float),
        ("at", .date), ("label", .string),
    ]

    /// A value and its exact Swift type, to compare what two reads gave.
    static func described(_ value: Any?) -> String {
        value.map { "\(type(of: $0)) \($0)" } ?? "nil"
    }

    @Test func everyStorageClassInEveryColumnReadsAsTheCheckedConversionReadsIt() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await GaugeModel.container(in: folder.url)
        let columns = Self.attributes.map { "Z" + $0.name.uppercased() }
        // Each row's columns as SQLite then holds them (after the columns' affinities), and what
        // the checked conversion makes of them.
        let expected = try await container.database!.write { db in
            for (offset, literal) in Self.literals.enumerated() {
                let values = Array(repeating: literal, count: columns.count).joined(separator: ", ")
                try db.execute(sql: "INSERT INTO ZGAUGE (Z_PK, Z_ENT, Z_OPT, \(columns.joined(separator: ", "))) VALUES (\(offset + 1), 1, 1, \(values))")
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Gauge'", arguments: [Self.literals.count])
            var expected = [Int64: [String]]()
            for row in try Row.fetchAll(db, sql: "SELECT Z_PK, \(columns.joined(separator: ", ")) FROM ZGAUGE") {
                expected[row[0]] = Self.attributes.indices.map { index in
                    Self.described(StoredValue.object(row[index + 1] as DatabaseValue, as: Self.attributes[index].type))
                }
            }
            return expected
        }
        let classes = try await container.database!.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT typeof(ZWIDE) || ' ' || typeof(ZAT) || ' ' || typeof(ZLABEL) FROM ZGAUGE")
        }
        // Each class SQLite keeps, in a number column and in the string column.
        #expect(Set(classes).isSuperset(of: ["integer integer text", "real real text", "text text text", "blob blob blob", "null null null"]))
        let context = container.newBackgroundContext()
        let read = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Gauge")).map { gauge in
                (Int64(gauge.objectID.uriRepresentation().lastPathComponent.dropFirst())!, Self.attributes.map { Self.described(gauge.value(forKey: $0.name)) })
            }
        }
        #expect(read.count == Self.literals.count)
        for (key, values) in read {
            #expect(values == expected[key], "row \(key), written as \(Self.literals[Int(key) - 1])")
        }
    }
}
