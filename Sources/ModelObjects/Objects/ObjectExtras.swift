/// The state an object needs only once it is refreshed, has transient values or relationships
/// read, or is probed or assigned to a store: kept apart, made on first use, so that the many
/// objects a fetch makes and only read carry one empty reference instead of all of it.
final class ObjectExtras {
    /// The saved values the object had when it last turned into a fault (``ManagedObject/cachedRow``).
    var cachedRow: CachedRow?
    /// Whether a save merged into the context deleted the object's row (``ManagedObject/deletedElsewhere``).
    var deletedElsewhere = false
    /// Transient attributes' values, kept in memory only.
    var transients: [String: Any] = [:]
    /// The to-manys read or changed so far, as they are now, and as they were saved.
    var toManys: [String: RelatedObjects] = [:]
    var committedToManys: [String: [ManagedObject]] = [:]
    /// The to-manys changed since the last save.
    var changedToManys: Set<String> = []
    /// The store a new object is to be saved to.
    var assignedStore: PersistentStore?
    /// For a probe object reading a key path: the keys asked for.
    var keyProbe: KeyProbe?
}

/// The object's rarely used state, read as if it were stored in the object: an object without
/// its ``ObjectExtras`` reads empty values, and gets one only when a value that is not empty is
/// stored (setting an empty one, as a fetch or a reset does to every object, makes nothing). The
/// store is deferred, so that it happens however the access ends.
extension ManagedObject {
    /// The object's extras, made now if it has none.
    private func madeExtras() -> ObjectExtras {
        if let extras { return extras }
        let made = ObjectExtras()
        extras = made
        return made
    }

    /// The saved values the object had when it last turned into a fault, to fulfill it again
    /// while they are fresh enough (``ManagedObjectContext/stalenessInterval``).
    var cachedRow: CachedRow? {
        get { extras?.cachedRow }
        _modify {
            if let extras { yield &extras.cachedRow } else {
                var value: CachedRow?
                defer { if value != nil { madeExtras().cachedRow = value } }
                yield &value
            }
        }
    }

    /// Whether the object's row was deleted by a save merged into its context, which deleted the
    /// object here too: saving that deletion again writes nothing.
    var deletedElsewhere: Bool {
        get { extras?.deletedElsewhere ?? false }
        _modify {
            if let extras { yield &extras.deletedElsewhere } else {
                var value = false
                defer { if value { madeExtras().deletedElsewhere = value } }
                yield &value
            }
        }
    }

    /// Transient attributes' values, kept in memory only.
    var transients: [String: Any] {
        get { extras?.transients ?? [:] }
        _modify {
            if let extras { yield &extras.transients } else {
                var value: [String: Any] = [:]
                defer { if !value.isEmpty { madeExtras().transients = value } }
                yield &value
            }
        }
    }

    /// The to-manys read or changed so far, as they are now.
    var toManys: [String: RelatedObjects] {
        get { extras?.toManys ?? [:] }
        _modify {
            if let extras { yield &extras.toManys } else {
                var value: [String: RelatedObjects] = [:]
                defer { if !value.isEmpty { madeExtras().toManys = value } }
                yield &value
            }
        }
    }

    /// The to-manys read or changed so far, as they were saved.
    var committedToManys: [String: [ManagedObject]] {
        get { extras?.committedToManys ?? [:] }
        _modify {
            if let extras { yield &extras.committedToManys } else {
                var value: [String: [ManagedObject]] = [:]
                defer { if !value.isEmpty { madeExtras().committedToManys = value } }
                yield &value
            }
        }
    }

    /// The to-manys changed since the last save.
    var changedToManys: Set<String> {
        get { extras?.changedToManys ?? [] }
        _modify {
            if let extras { yield &extras.changedToManys } else {
                var value: Set<String> = []
                defer { if !value.isEmpty { madeExtras().changedToManys = value } }
                yield &value
            }
        }
    }

    /// The store a new object is to be saved to (``ManagedObjectContext/assign(_:to:)``); nil for
    /// the first store holding its entity.
    var assignedStore: PersistentStore? {
        get { extras?.assignedStore }
        _modify {
            if let extras { yield &extras.assignedStore } else {
                var value: PersistentStore?
                defer { if value != nil { madeExtras().assignedStore = value } }
                yield &value
            }
        }
    }

    /// For a probe object reading a key path: the keys ``value(forKey:)`` was asked for.
    var keyProbe: KeyProbe? {
        get { extras?.keyProbe }
        _modify {
            if let extras { yield &extras.keyProbe } else {
                var value: KeyProbe?
                defer { if value != nil { madeExtras().keyProbe = value } }
                yield &value
            }
        }
    }
}
