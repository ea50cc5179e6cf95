import Foundation

/// What a fetch returns (`NSFetchRequestResultType`).
public enum FetchRequestResultType: Int, Sendable {
    /// Managed objects.
    case managedObjectResultType = 0
    /// The objects' IDs.
    case managedObjectIDResultType = 1
    /// A dictionary of values per object, or per group.
    case dictionaryResultType = 2
    /// The number of matching objects.
    case countResultType = 4
}

/// A search of one entity's objects (`NSFetchRequest`): which ones (a predicate), in which
/// order, how many, and as what (objects, IDs, dictionaries or a count).
public final class FetchRequest<ResultType>: @unchecked Sendable, CustomStringConvertible {
    /// The name of the entity whose objects are fetched.
    public let entityName: String
    /// Which objects match; every object of the entity when nil.
    public var predicate: FetchPredicate?
    /// The order of the results, first key first; the store's order when empty.
    public var sortDescriptors: [FetchSortDescriptor] = []
    /// At most this many results; 0 for all.
    public var fetchLimit = 0
    /// How many of the first results to skip.
    public var fetchOffset = 0
    /// Read rows this many at a time (0 for all at once).
    public var fetchBatchSize = 0
    /// What the fetch returns; ``init(entityName:)`` sets it from `ResultType`.
    public var resultType: FetchRequestResultType
    /// Whether objects of the entity's subentities match too.
    public var includesSubentities = true
    /// Whether unsaved objects of the context are matched too (ignored for dictionary results, as in Core Data).
    public var includesPendingChanges = true
    /// Whether fetched objects may stay faults until a value is read, as in Core Data.
    public var returnsObjectsAsFaults = true
    /// For dictionary results: what each dictionary holds, attributes by name and
    /// ``ExpressionDescription``s (aggregates with `propertiesToGroupBy`); every attribute when nil.
    public var propertiesToFetch: [Any]?
    /// For dictionary results: one dictionary per distinct combination of these attributes' values
    /// (`GROUP BY`); what is fetched must be among them.
    public var propertiesToGroupBy: [String]?
    /// For dictionary results: equal dictionaries are returned once.
    public var returnsDistinctResults = false
    /// Relationships whose destinations are read with the results, so that following them reads no more rows.
    public var relationshipKeyPathsForPrefetching: [String]?
    /// The stores the fetch reads (of its context's coordinator); every store holding the entity when nil.
    public var affectedStores: [PersistentStore]?

    /// A request of every object of `entityName`, returning what `ResultType` says.
    public init(entityName: String) {
        self.entityName = entityName
        resultType = switch ResultType.self {
        case is ManagedObjectID.Type: .managedObjectIDResultType
        case is [String: Any].Type, is NSDictionary.Type: .dictionaryResultType
        case is NSNumber.Type: .countResultType
        default: .managedObjectResultType
        }
    }

    /// The entity and the predicate.
    public var description: String {
        "FetchRequest(\(entityName)\(predicate.map { ", \($0)" } ?? ""))"
    }
}

/// A sort order of a fetch (`NSSortDescriptor` with a key): a key path, its direction and how
/// strings compare. (Foundation on Linux has a `SortDescriptor` of its own and refuses keyed
/// `NSSortDescriptor`s, hence the name.)
public struct FetchSortDescriptor: Sendable, Hashable {
    /// How values compare: Core Data's selectors, by name.
    public enum Comparison: Sendable, Hashable {
        /// `compare:`: values in their natural order, strings by code point.
        case `default`
        /// `caseInsensitiveCompare:`.
        case caseInsensitive
        /// `localizedCompare:`.
        case localized
        /// `localizedCaseInsensitiveCompare:`.
        case localizedCaseInsensitive
        /// `localizedStandardCompare:`: as the Finder sorts names.
        case localizedStandard
    }

    /// The key path sorted by.
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How values, strings above all, compare.
    public var comparison: Comparison

    /// A sort by `key` in the given direction and comparison.
    public init(key: String, ascending: Bool = true, comparison: Comparison = .default) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// A descriptor with the selector Core Data names (`caseInsensitiveCompare:`, `localizedCompare:`,
    /// `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:`, `compare:`).
    public init(key: String, ascending: Bool, selector: String) {
        let comparison: Comparison = switch selector {
        case "caseInsensitiveCompare:": .caseInsensitive
        case "localizedCompare:": .localized
        case "localizedCaseInsensitiveCompare:": .localizedCaseInsensitive
        case "localizedStandardCompare:": .localizedStandard
        default: .default
        }
        self.init(key: key, ascending: ascending, comparison: comparison)
    }
}
