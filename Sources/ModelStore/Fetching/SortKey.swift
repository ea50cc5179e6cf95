import Foundation
import ModelExpression

/// A sort key of a fetch: a key path, its direction and how strings compare.
///
/// The store sorts with the collations ``CoreDataFunctions`` registers and the context sorts
/// unsaved objects with ``compare(_:_:by:)``; both compare strings with ``Comparison/order(_:_:)``.
package struct SortKey: Sendable, Hashable {
    /// How strings compare: Core Data's sort selectors, each with the collation Core Data names for it.
    package enum Comparison: Sendable, Hashable, CaseIterable {
        /// `compare:`, SQLite's `BINARY` (Unicode scalar order).
        case `default`
        /// `caseInsensitiveCompare:`, `NSCollateNoCase`.
        case caseInsensitive
        /// `localizedCompare:`, `NSCollateLocaleSensitive`.
        case localized
        /// `localizedCaseInsensitiveCompare:`, `NSCollateLocaleSensitiveNoCase`.
        case localizedCaseInsensitive
        /// `localizedStandardCompare:`, `NSCollateFinderlike`.
        case localizedStandard

        /// The collation the store sorts with; nil for SQLite's own `BINARY`.
        var collation: String? {
            switch self {
            case .default: nil
            case .caseInsensitive: "NSCollateNoCase"
            case .localized: "NSCollateLocaleSensitive"
            case .localizedCaseInsensitive: "NSCollateLocaleSensitiveNoCase"
            case .localizedStandard: "NSCollateFinderlike"
            }
        }

        /// The order of two strings under this comparison.
        package func order(_ a: String, _ b: String) -> ComparisonResult {
            switch self {
            case .default: StringOperators.order(a, b, options: [])
            case .caseInsensitive: StringOperators.order(a, b, options: .caseInsensitive)
            case .localized: a.localizedCompare(b)
            case .localizedCaseInsensitive: a.localizedCaseInsensitiveCompare(b)
            case .localizedStandard: a.localizedStandardCompare(b)
            }
        }
    }

    package var keyPath: String
    package var ascending: Bool
    package var comparison: Comparison

    package init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .default) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The same order in memory: `nil` first, numbers by value, strings by the key's comparison.
    package static func compare(_ a: EvaluatedValue, _ b: EvaluatedValue, by key: SortKey) -> ComparisonResult {
        let result: ComparisonResult
        switch (a, b) {
        case (.null, .null): result = .orderedSame
        case (.null, _): result = .orderedAscending
        case (_, .null): result = .orderedDescending
        case (.string(let x), .string(let y)): result = key.comparison.order(x, y)
        case (.date(let x), .date(let y)): result = x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        default:
            let (x, y) = (a.number ?? 0, b.number ?? 0)
            result = x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        }
        guard !key.ascending else { return result }
        return result == .orderedAscending ? .orderedDescending : result == .orderedDescending ? .orderedAscending : .orderedSame
    }
}
