import ModelExpression

/// One section of a fetched results controller's results (`NSFetchedResultsSectionInfo`): the
/// objects whose section key has one value, in the request's order.
public protocol FetchedResultsSectionInfo: AnyObject {
    /// The section key's value, as text ("" for nil).
    var name: String { get }
    /// The section's entry in a section index.
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in the request's order.
    var objects: [Any]? { get }
}

/// An object of the results with the values of the request's sort keys it was placed by.
struct ResultRow<Object: ManagedObject> {
    let object: Object
    let values: [EvaluatedValue]
}

/// A section of a controller's results: its rows kept in the request's order, so that a changed
/// object is found and placed by binary search.
final class ResultsSection<Object: ManagedObject>: FetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    /// The value of the first sort key (the section key) shared by the section's objects.
    let key: EvaluatedValue
    var rows = ResultRows<Object>([])

    init(name: String, indexTitle: String?, key: EvaluatedValue) {
        self.name = name
        self.indexTitle = indexTitle
        self.key = key
    }

    var numberOfObjects: Int { rows.count }
    var objects: [Any]? { rows.objects }
}
