import Foundation
import ModelExpression
import ModelStore

/// The state and work of a fetched results controller, shared by the typed controller an app
/// holds and the erased one its delegate is handed: the sections, where each object is, and the
/// tracking of the context's changes. Objects are held as managed objects; only those of the
/// controller's result type (``accepts``) enter the results.
///
/// A change costs in proportion to the objects it touches, not to the results: each section keeps
/// its objects in the request's order, and a changed object is found and placed by binary search.
final class FetchedResultsCore {
    let request: any ResultsRequest
    let managedObjectContext: ManagedObjectContext
    let sectionNameKeyPath: String?
    let cacheName: String?
    /// Whether an object is of the controller's result type.
    let accepts: (ManagedObject) -> Bool
    weak var delegate: (any FetchedResultsControllerDelegate)?
    /// The controller handed to the delegate; held by the typed controller (or is it), so weak here.
    weak var erased: FetchedResultsController<any FetchRequestResult>?
    /// Counts the changes of the results, so that a typed controller knows when its list is stale.
    private(set) var version = 0

    var orderedSections: [ResultsSection<ManagedObject>]?
    /// Where each object of the results is, with the sort values it was placed by.
    var placements: [ObjectIdentifier: Placement] = [:]
    var sortKeys: [SortKey] = []
    private var observer: ObserverToken?
    /// The delegate last asked whether it takes differences, and its answer (see ``sendsDifference``).
    weak var probedDelegate: (any FetchedResultsControllerDelegate)?
    var delegateTakesDifferences = false
    /// Set by the protocol's default `controller(_:didChangeContentWith:)`: the delegate does not implement it.
    var defaultDifferenceRan = false

    /// An object's section and the sort values that place it there.
    struct Placement {
        let section: ResultsSection<ManagedObject>
        let values: [EvaluatedValue]
    }

    init(request: any ResultsRequest, context: ManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?,
         accepts: @escaping (ManagedObject) -> Bool) {
        self.request = request
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.accepts = accepts
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer.observer) }
    }

    /// Runs the fetch request and arranges its results in sections; see ``FetchedResultsController/performFetch()``.
    func performFetch() throws {
        guard request.resultType == .managedObjectResultType else {
            throw ContextError.make(134060, "a fetched results controller needs a fetch request for managed objects")
        }
        guard let first = request.sortDescriptors.first else {
            throw ContextError.make(134060, "a fetched results controller needs a fetch request with sort descriptors")
        }
        if let sectionNameKeyPath, first.key != sectionNameKeyPath {
            throw ContextError.make(134060, "the first sort descriptor must sort by the section key path '\(sectionNameKeyPath)', not '\(first.key)'")
        }
        let context = managedObjectContext
        let objects = try request.fetchObjects(in: context).filter(accepts)
        sortKeys = request.sortDescriptors.map(ManagedObjectContext.sortKey)
        let evaluation = ObjectEvaluation(context)
        var rows = try objects.map { object in ResultRow(object: object, values: try values(of: object, evaluation)) }
        // The store's order, made exactly the in-memory comparison's that later changes are placed by.
        rows = rows.enumerated().sorted { a, b in
            let order = compare(a.element.values, b.element.values)
            return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
        }.map(\.element)
        var sections = [ResultsSection<ManagedObject>]()
        var sectionRows = [[ResultRow<ManagedObject>]]()
        placements = Dictionary(minimumCapacity: rows.count)
        for row in rows {
            let name = sectionName(row.values)
            if sections.last?.name != name {
                sections.append(makeSection(name, key: row.values[0]))
                sectionRows.append([])
            }
            guard let section = sections.last else { continue }
            sectionRows[sectionRows.count - 1].append(row)
            placements[ObjectIdentifier(row.object)] = Placement(section: section, values: row.values)
        }
        for (section, rows) in zip(sections, sectionRows) { section.rows = ResultRows(rows) }
        orderedSections = sections
        invalidateObjects()
        observeContext()
    }

    /// The results, in order; nil before ``performFetch()``.
    var fetchedObjects: [ManagedObject]? { orderedSections.map { $0.flatMap { $0.rows.objects } } }

    /// The object at `indexPath`; nil outside the results.
    func object(at indexPath: IndexPath) -> ManagedObject? {
        guard let sections = orderedSections, sections.indices.contains(indexPath.section) else { return nil }
        let rows = sections[indexPath.section].rows
        guard indexPath.item >= 0, indexPath.item < rows.count else { return nil }
        return rows[indexPath.item].object
    }

    /// Where `object` is in the results; nil when it is not one of them.
    func indexPath(forObject object: ManagedObject) -> IndexPath? {
        guard let placement = placements[ObjectIdentifier(object)], let section = sectionIndex(of: placement.section),
            let item = itemIndex(of: object, values: placement.values, in: placement.section)
        else { return nil }
        return IndexPath(item: item, section: section)
    }

    /// The section index: each section's index title once, in section order.
    var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (orderedSections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The number of the first section whose index title is `title`; `sectionIndex` (within the
    /// sections) when none is.
    func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let sections = orderedSections ?? []
        if let found = sections.firstIndex(where: { $0.indexTitle == title }) { return found }
        return max(0, min(sectionIndex, sections.count - 1))
    }


    // MARK: - Order

    /// The values of the request's sort keys on `object`.
    func values(of object: ManagedObject, _ evaluation: ObjectEvaluation) throws -> [EvaluatedValue] {
        try sortKeys.map { try evaluation.value(atPath: $0.keyPath, of: object) }
    }

    /// The order of two objects' sort values under the request's sort descriptors.
    func compare(_ a: [EvaluatedValue], _ b: [EvaluatedValue]) -> ComparisonResult {
        for (index, key) in sortKeys.enumerated() {
            let order = SortKey.compare(a[index], b[index], by: key)
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }

    /// The name of the section of an object with these sort values ("" without a section key).
    func sectionName(_ values: [EvaluatedValue]) -> String {
        guard sectionNameKeyPath != nil, let key = values.first else { return "" }
        return Self.text(key)
    }

    func makeSection(_ name: String, key: EvaluatedValue) -> ResultsSection<ManagedObject> {
        var title: String?
        if sectionNameKeyPath != nil {
            if let delegate, let erased {
                title = delegate.controller(erased, sectionIndexTitleForSectionName: name)
            } else {
                title = erased?.sectionIndexTitle(forSectionName: name) ?? FetchedResultsCore.defaultIndexTitle(name)
            }
        }
        return ResultsSection(name: name, indexTitle: title, key: sectionNameKeyPath == nil ? .null : key)
    }

    /// A section key's value as a section name, as Core Data prints it.
    static func text(_ value: EvaluatedValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .bool(let flag): flag ? "1" : "0"
        case .integer(let number): String(number)
        case .double(let number): NSNumber(value: number).description
        case .decimal(let number): NSDecimalNumber(decimal: number).description
        case .date(let date): date.description
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        default: "\(value)"
        }
    }

    // MARK: - Finding objects

    /// The index of `section` among the sections, found by its key.
    func sectionIndex(of section: ResultsSection<ManagedObject>) -> Int? {
        let sections = orderedSections ?? []
        var index = lowerBound(count: sections.count) { self.compareSectionKey(sections[$0].key, section.key) }
        while index < sections.count {
            if sections[index] === section { return index }
            guard compareSectionKey(sections[index].key, section.key) == .orderedSame else { return nil }
            index += 1
        }
        return nil
    }

    /// The index of the section named `name` whose key is `key`, or where such a section goes.
    func sectionSlot(name: String, key: EvaluatedValue) -> (index: Int, found: Bool) {
        let sections = orderedSections ?? []
        var index = lowerBound(count: sections.count) { self.compareSectionKey(sections[$0].key, key) }
        while index < sections.count, compareSectionKey(sections[index].key, key) == .orderedSame {
            if sections[index].name == name { return (index, true) }
            index += 1
        }
        return (index, false)
    }

    func compareSectionKey(_ a: EvaluatedValue, _ b: EvaluatedValue) -> ComparisonResult {
        guard sectionNameKeyPath != nil, let key = sortKeys.first else { return .orderedSame }
        return SortKey.compare(a, b, by: key)
    }

    /// The index of `object` in `section`, found by the sort values it was placed by.
    func itemIndex(of object: ManagedObject, values: [EvaluatedValue], in section: ResultsSection<ManagedObject>) -> Int? {
        let rows = section.rows
        var index = rows.firstIndex { self.compare($0.values, values) == .orderedAscending }
        while index < rows.count {
            let row = rows[index]
            if row.object === object { return index }
            guard compare(row.values, values) == .orderedSame else { return nil }
            index += 1
        }
        return nil
    }

    /// Where an object with `values` goes in `section`: after those that sort before it or equal.
    func insertionIndex(of values: [EvaluatedValue], in section: ResultsSection<ManagedObject>) -> Int {
        section.rows.firstIndex { self.compare($0.values, values) != .orderedDescending }
    }

    /// The first index in `0..<count` whose element does not sort before the one sought.
    private func lowerBound(count: Int, _ order: (Int) -> ComparisonResult) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if order(middle) == .orderedAscending { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: - Observing

    /// Starts listening to the context's objects-did-change notifications, once; they are posted
    /// on the context's queue, where the controller is used.
    private func observeContext() {
        guard observer == nil else { return }
        let context = managedObjectContext
        let key = ObjectIdentifier(self)
        context.changeHandlers = context.changeHandlers.filter { $0.value.target != nil }
        context.changeHandlers[key] = WeakChangeHandler(target: self)
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil) {
            [weak context] notification in
            guard let context, let handler = context.changeHandlers[key]?.target else { return }
            handler.contextDidChange(notification.userInfo ?? [:])
        }
        observer = ObserverToken(token)
    }

    func invalidateObjects() { version &+= 1 }

    /// Core Data's default section index entry of a section name: its capitalized first letter.
    static func defaultIndexTitle(_ sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }
}

/// What a controller's core needs of its fetch request, whatever the request's result type.
protocol ResultsRequest: AnyObject {
    var entityName: String { get }
    var predicate: FetchPredicate? { get }
    var sortDescriptors: [FetchSortDescriptor] { get }
    var includesSubentities: Bool { get }
    var resultType: FetchRequestResultType { get }
    /// The request's results in `context` that are managed objects.
    func fetchObjects(in context: ManagedObjectContext) throws -> [ManagedObject]
}

extension FetchRequest: ResultsRequest {
    func fetchObjects(in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(self).compactMap { $0 as? ManagedObject }
    }
}

/// What the context calls back, on its queue, when it announces changes.
protocol ContextChangeHandler: AnyObject {
    func contextDidChange(_ userInfo: [AnyHashable: Any])
}

/// A change handler the context does not keep alive.
struct WeakChangeHandler {
    weak var target: (any ContextChangeHandler)?
}
