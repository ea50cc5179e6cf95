import Foundation
import GRDB
import ModelExpression

/// The SQL functions and collations fetches use, under the names Core Data registers on its own
/// connections, implemented with ``StringOperators`` and
/// ``SortKey/Comparison`` so that the store answers as the evaluator does.
///
/// Their arguments are modelc's (Core Data's own are undocumented): `flags` holds
/// `NSString.CompareOptions` bits, 1 for `[c]` and 128 for `[d]`; `kind` is the
/// `NSPredicateOperatorType` (8 `BEGINSWITH`, 9 `ENDSWITH`, 99 `CONTAINS`). Each gives NULL when
/// a string is NULL, as SQL's comparisons do. They read their text whole (``WholeTextFunction``),
/// so a string holding U+0000 is searched and compared as the evaluator sees it.
extension CoreDataFunctions {
    /// Registers the fetch functions on a connection: `NSCoreDataStringSearch(text, pattern, flags, kind)`,
    /// `NSCoreDataLike(text, pattern, flags)`, `NSCoreDataMatches(text, pattern, flags)` (1 or 0),
    /// `NSCoreDataStringCompare(a, b, flags)` (-1, 0 or 1); and the sort collations.
    /// - Throws: `DatabaseError` when SQLite refuses a function.
    static func registerFetching(in db: Database) throws {
        try WholeTextFunction("NSCoreDataStringSearch", argumentCount: 4, pure: true) { values in
            guard let (text, pattern, options) = strings(values), let kind = ComparisonOperator(rawValue: Int(values[3]) ?? -1),
                [.beginsWith, .endsWith, .contains].contains(kind)
            else { return nil }
            return try StringOperators.holds(text, kind, pattern, options: options)
        }.install(in: db)
        for (name, op) in [("NSCoreDataLike", ComparisonOperator.like), ("NSCoreDataMatches", .matches)] {
            try WholeTextFunction(name, argumentCount: 3, pure: true) { values in
                guard let (text, pattern, options) = strings(values) else { return nil }
                return try StringOperators.holds(text, op, pattern, options: options)
            }.install(in: db)
        }
        try WholeTextFunction("NSCoreDataStringCompare", argumentCount: 3, pure: true) { values in
            guard let (a, b, options) = strings(values) else { return nil }
            return StringOperators.order(a, b, options: options).rawValue
        }.install(in: db)
        for comparison in SortKey.Comparison.allCases {
            guard let name = comparison.collation else { continue }
            db.add(collation: DatabaseCollation(name) { comparison.order($0, $1) })
        }
    }

    /// The `NSString.CompareOptions` bits of `[c]` and `[d]`.
    static func flags(_ options: ComparisonOptions) -> Int {
        (options.contains(.caseInsensitive) ? 1 : 0) | (options.contains(.diacriticInsensitive) ? 128 : 0)
    }

    /// The two strings and the options of a call; nil when either is not a string.
    private static func strings(_ values: [DatabaseValue]) -> (String, String, ComparisonOptions)? {
        guard case .string(let a) = values[0].storage, case .string(let b) = values[1].storage else { return nil }
        let bits = Int(values[2]) ?? 0
        var options = ComparisonOptions()
        if bits & 1 != 0 { options.insert(.caseInsensitive) }
        if bits & 128 != 0 { options.insert(.diacriticInsensitive) }
        return (a, b, options)
    }
}

extension Int {
    /// An integer argument of a function call.
    fileprivate init?(_ value: DatabaseValue) {
        guard case .int64(let number) = value.storage else { return nil }
        self.init(number)
    }
}
