import Foundation
import ModelExpression
import ModelStore

/// The results of a fetch request arranged in sections for a list screen, kept up to date as the
/// context's objects change (`NSFetchedResultsController`): after ``performFetch()``, each change
/// event of the context (the end of a `perform` block, a save, a merge of another context's or
/// process's save, a refresh) is reported to the ``delegate`` as inserted, deleted, moved and
/// updated objects and sections. It belongs to its context's queue, as the context's objects do.
///
/// A change costs in proportion to the objects it touches, not to the results: each section keeps
/// its objects in the request's order, and a changed object is found and placed by binary search.
open class FetchedResultsController<ResultType: ManagedObject>: AnyFetchedResultsController {
    public let fetchRequest: FetchRequest<ResultType>
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names an object's section; the request's first sort descriptor
    /// must sort by it.
    public let sectionNameKeyPath: String?
    /// Accepted for porting and ignored: results are not cached between launches.
    public let cacheName: String?
    /// The object told of changes; held weakly. Without one, changes are not tracked.
    public weak var delegate: (any FetchedResultsControllerDelegate)?

    var orderedSections: [ResultsSection<ResultType>]?
    /// Where each object of the results is, with the sort values it was placed by.
    var placements: [ObjectIdentifier: Placement] = [:]
    var sortKeys: [SortKey] = []
    private var cachedObjects: [ResultType]?
    private var observer: ObserverToken?

    /// An object's section and the sort values that place it there.
    struct Placement {
        let section: ResultsSection<ResultType>
        let values: [EvaluatedValue]
    }

    /// A controller of `fetchRequest`'s results in `context`, in sections by `sectionNameKeyPath`
    /// (one section when nil); `cacheName` is ignored.
    public init(fetchRequest: FetchRequest<ResultType>, managedObjectContext context: ManagedObjectContext,
                sectionNameKeyPath: String?, cacheName name: String?) {
        self.fetchRequest = fetchRequest
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        cacheName = name
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer.observer) }
    }

    /// Does nothing: this controller keeps no cache (`deleteCache(withName:)`).
    public static func deleteCache(withName name: String?) {}

    /// Runs the fetch request and arranges its results in sections. The request needs sort
    /// descriptors, the first sorting by the section key when there is one; otherwise it fails
    /// (134060), as Core Data's fetch does.
    public func performFetch() throws {
        guard let first = fetchRequest.sortDescriptors.first else {
            throw ContextError.make(134060, "a fetched results controller needs a fetch request with sort descriptors")
        }
        if let sectionNameKeyPath, first.key != sectionNameKeyPath {
            throw ContextError.make(134060, "the first sort descriptor must sort by the section key path '\(sectionNameKeyPath)', not '\(first.key)'")
        }
        let context = managedObjectContext
        let objects = try context.fetch(fetchRequest)
        sortKeys = fetchRequest.sortDescriptors.map(ManagedObjectContext.sortKey)
        let evaluation = ObjectEvaluation(context)
        var rows = try objects.map { object in ResultRow(object: object, values: try values(of: object, evaluation)) }
        // The store's order, made exactly the in-memory comparison's that later changes are placed by.
        rows = rows.enumerated().sorted { a, b in
            let order = compare(a.element.values, b.element.values)
            return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
        }.map(\.element)
        var sections = [ResultsSection<ResultType>]()
        var sectionRows = [[ResultRow<ResultType>]]()
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
        cachedObjects = nil
        observeContext()
    }

    /// The results, in order; nil before ``performFetch()``.
    public var fetchedObjects: [ResultType]? {
        guard let orderedSections else { return nil }
        if let cachedObjects { return cachedObjects }
        let objects = orderedSections.flatMap { $0.rows.objects }
        cachedObjects = objects
        return objects
    }

    /// The sections of the results (one, named "", without a section key); nil before ``performFetch()``.
    public var sections: [any FetchedResultsSectionInfo]? { orderedSections }

    /// The object at `indexPath` (`item` in `section`); as with an array, a path outside the
    /// results stops the program (Core Data raises an exception).
    public func object(at indexPath: IndexPath) -> ResultType {
        (orderedSections ?? [])[indexPath.section].rows[indexPath.item].object
    }

    /// Where `object` is in the results; nil when it is not one of them.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let placement = placements[ObjectIdentifier(object)], let section = sectionIndex(of: placement.section),
            let item = itemIndex(of: object, values: placement.values, in: placement.section)
        else { return nil }
        return IndexPath(item: item, section: section)
    }

    /// The section index: each section's index title once, in section order.
    open var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (orderedSections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The number of the first section whose index title is `title`; `sectionIndex` (within the
    /// sections) when none is.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let sections = orderedSections ?? []
        if let found = sections.firstIndex(where: { $0.indexTitle == title }) { return found }
        return max(0, min(sectionIndex, sections.count - 1))
    }

    /// The section index entry of a section name: its capitalized first letter, as Core Data's
    /// default; nil for an empty name.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    // MARK: - Order

    /// The values of the request's sort keys on `object`.
    func values(of object: ResultType, _ evaluation: ObjectEvaluation) throws -> [EvaluatedValue] {
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

    func makeSection(_ name: String, key: EvaluatedValue) -> ResultsSection<ResultType> {
        let title = sectionNameKeyPath == nil ? nil
            : delegate.map { $0.controller(self, sectionIndexTitleForSectionName: name) } ?? sectionIndexTitle(forSectionName: name)
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
    func sectionIndex(of section: ResultsSection<ResultType>) -> Int? {
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
    func itemIndex(of object: ResultType, values: [EvaluatedValue], in section: ResultsSection<ResultType>) -> Int? {
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
    func insertionIndex(of values: [EvaluatedValue], in section: ResultsSection<ResultType>) -> Int {
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

    func invalidateObjects() { cachedObjects = nil }
}

/// What the context calls back, on its queue, when it announces changes.
protocol ContextChangeHandler: AnyObject {
    func contextDidChange(_ userInfo: [AnyHashable: Any])
}

/// A change handler the context does not keep alive.
struct WeakChangeHandler {
    weak var target: (any ContextChangeHandler)?
}
