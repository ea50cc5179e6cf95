import Foundation

/// The results of a fetch request arranged in sections for a list screen, kept up to date as the
/// context's objects change (`NSFetchedResultsController`): after ``performFetch()``, each change
/// event of the context (the end of a `perform` block, a save, a merge of another context's or
/// process's save, a refresh) is reported to the ``delegate`` as inserted, deleted, moved and
/// updated objects and sections. It belongs to its context's queue, as the context's objects do.
///
/// The delegate is handed this controller as `FetchedResultsController<any FetchRequestResult>`
/// (Core Data's `NSFetchedResultsController<NSFetchRequestResult>`): a twin made once that shares
/// this controller's results, and is equal to it (`==`), so delegate code ports unchanged.
open class FetchedResultsController<ResultType>: NSObject {
    let core: FetchedResultsCore
    /// The erased twin handed to the delegate; nil when this controller is that type itself.
    private let twin: FetchedResultsController<any FetchRequestResult>?
    private var typedObjects: (version: Int, objects: [ResultType])?

    /// A controller of `fetchRequest`'s results in `context`, in sections by `sectionNameKeyPath`
    /// (one section when nil); `cacheName` is ignored.
    public init(fetchRequest: FetchRequest<ResultType>, managedObjectContext context: ManagedObjectContext,
                sectionNameKeyPath: String?, cacheName name: String?) {
        core = FetchedResultsCore(request: fetchRequest, context: context, sectionNameKeyPath: sectionNameKeyPath,
                                  cacheName: name, accepts: { $0 is ResultType })
        twin = Self.makeTwin(core)
        super.init()
        core.erased = twin ?? (self as? FetchedResultsController<any FetchRequestResult>)
    }

    /// The erased twin of a controller of `core`: another controller sharing it.
    init(core: FetchedResultsCore) {
        self.core = core
        twin = Self.makeTwin(core)
        super.init()
        core.erased = twin ?? (self as? FetchedResultsController<any FetchRequestResult>)
    }

    /// The twin a controller of this result type hands its delegate; nil when it is of the erased type itself.
    private static func makeTwin(_ core: FetchedResultsCore) -> FetchedResultsController<any FetchRequestResult>? {
        ResultType.self == (any FetchRequestResult).self ? nil : FetchedResultsController<any FetchRequestResult>(core: core)
    }

    /// The fetch request; the erased controller a delegate is handed has a copy of the app's.
    public var fetchRequest: FetchRequest<ResultType> {
        if let request = core.request as? FetchRequest<ResultType> { return request }
        let copy = FetchRequest<ResultType>(entityName: core.request.entityName)
        copy.predicate = core.request.predicate
        copy.sortDescriptors = core.request.sortDescriptors
        copy.includesSubentities = core.request.includesSubentities
        return copy
    }

    /// The context the controller fetches in and follows.
    public var managedObjectContext: ManagedObjectContext { core.managedObjectContext }
    /// The key path whose value names an object's section; the request's first sort descriptor
    /// must sort by it.
    public var sectionNameKeyPath: String? { core.sectionNameKeyPath }
    /// Accepted for porting and ignored: results are not cached between launches.
    public var cacheName: String? { core.cacheName }
    /// The object told of changes; held weakly. Without one, changes are not tracked.
    public weak var delegate: (any FetchedResultsControllerDelegate)? {
        get { core.delegate }
        set { core.delegate = newValue }
    }

    /// Does nothing: this controller keeps no cache (`deleteCache(withName:)`).
    public static func deleteCache(withName name: String?) {}

    /// Runs the fetch request and arranges its results in sections. The request needs sort
    /// descriptors, the first sorting by the section key when there is one; otherwise it fails
    /// (134060), as Core Data's fetch does.
    public func performFetch() throws { try core.performFetch() }

    /// The results, in order; nil before ``performFetch()``.
    public var fetchedObjects: [ResultType]? {
        if let typedObjects, typedObjects.version == core.version, core.orderedSections != nil { return typedObjects.objects }
        guard let objects = core.fetchedObjects else { return nil }
        let typed = objects.compactMap { $0 as? ResultType }
        typedObjects = (core.version, typed)
        return typed
    }

    /// The sections of the results (one, named "", without a section key); nil before ``performFetch()``.
    public var sections: [any FetchedResultsSectionInfo]? { core.orderedSections }

    /// The object at `indexPath` (`item` in `section`); as with an array, a path outside the
    /// results stops the program (Core Data raises an exception).
    public func object(at indexPath: IndexPath) -> ResultType {
        // Only objects of ResultType enter the results (the core's `accepts`), so the cast fails
        // only outside them.
        guard let object = core.object(at: indexPath) as? ResultType else {
            preconditionFailure("no object at \(indexPath) in the fetched results")
        }
        return object
    }

    /// Where `object` is in the results; nil when it is not one of them.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let object = object as? ManagedObject else { return nil }
        return core.indexPath(forObject: object)
    }

    /// The section index: each section's index title once, in section order.
    open var sectionIndexTitles: [String] { core.sectionIndexTitles }

    /// The number of the first section whose index title is `title`; `sectionIndex` (within the
    /// sections) when none is.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        core.section(forSectionIndexTitle: title, at: sectionIndex)
    }

    /// The section index entry of a section name: its capitalized first letter, as Core Data's
    /// default; nil for an empty name.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        FetchedResultsCore.defaultIndexTitle(sectionName)
    }

    /// Equal to a controller sharing its results: the app's controller and the twin its delegate is handed.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? any SharesResultsCore)?.core === core
    }

    /// The hash of the results it shares, so that the app's controller and its twin hash alike.
    open override var hash: Int { ObjectIdentifier(core).hashValue }
}

/// A controller, whatever its result type, by the core it shares.
protocol SharesResultsCore: AnyObject {
    var core: FetchedResultsCore { get }
}

extension FetchedResultsController: SharesResultsCore {}
