/// The state an object needs only once it is refreshed, has transient values or relationships
/// read, is observed, probed or assigned to a store: kept apart, made on first use, so that the many
/// objects a fetch makes and only read carry one empty reference instead of all of it. It also
/// keeps the held to-ones and unsaved changes of an object that has more than one of the three
/// (``ObjectSideState``).
final class ObjectExtras {
    /// The objects held for the saved to-ones (``ManagedObject/heldToOnes``).
    var heldToOnes: HeldToOnes
    /// The unsaved changes' box (``ManagedObject/pending``).
    var pendingChanges: PendingChanges?
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
    /// The object's observers (ManagedObject+Observation.swift); made when an observer first
    /// reads the object.
    var observation: ObservationBox?
    /// The row's version when it is too large for the object's word (``VersionAndFlags``).
    var wideVersion: Int64 = 0

    init(heldToOnes: HeldToOnes = .none, pendingChanges: PendingChanges? = nil) {
        self.heldToOnes = heldToOnes
        self.pendingChanges = pendingChanges
    }
}

/// The object's rarely used state, read as if it were stored in the object: an object without
/// its ``ObjectExtras`` reads empty values, and gets one only when a value that is not empty is
/// stored (setting an empty one, as a fetch or a reset does to every object, makes nothing). A
/// change in place stores when the access ends, however it ends; a plain assignment takes the
/// setter, since a `_modify` whose value outgrows the caller's fixed buffer allocates its frame
/// (a fetch's `cachedRow = nil` did, once for every object it made).
extension ManagedObject {
    /// The saved values the object had when it last turned into a fault, to fulfill it again
    /// while they are fresh enough (``ManagedObjectContext/stalenessInterval``).
    var cachedRow: CachedRow? {
        get { extras?.cachedRow }
        set {
            if let extras { extras.cachedRow = newValue } else if newValue != nil { madeExtras().cachedRow = newValue }
        }
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
        set {
            if let extras { extras.deletedElsewhere = newValue } else if newValue { madeExtras().deletedElsewhere = newValue }
        }
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
        set {
            if let extras { extras.transients = newValue } else if !newValue.isEmpty { madeExtras().transients = newValue }
        }
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
        set {
            if let extras { extras.toManys = newValue } else if !newValue.isEmpty { madeExtras().toManys = newValue }
        }
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
        set {
            if let extras { extras.committedToManys = newValue } else if !newValue.isEmpty { madeExtras().committedToManys = newValue }
        }
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
        set {
            if let extras { extras.changedToManys = newValue } else if !newValue.isEmpty { madeExtras().changedToManys = newValue }
        }
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
        set {
            if let extras { extras.assignedStore = newValue } else if newValue != nil { madeExtras().assignedStore = newValue }
        }
        _modify {
            if let extras { yield &extras.assignedStore } else {
                var value: PersistentStore?
                defer { if value != nil { madeExtras().assignedStore = value } }
                yield &value
            }
        }
    }

    /// The object's observers, made when an observer first reads the object: read on every
    /// read of a value, through the one reference a fetched object carries for all its extras.
    @inline(__always)
    var observation: ObservationBox? {
        get { extras?.observation }
        set {
            if let extras { extras.observation = newValue } else if newValue != nil { madeExtras().observation = newValue }
        }
    }

    /// For a probe object reading a key path: the keys ``value(forKey:)`` was asked for.
    var keyProbe: KeyProbe? {
        get { extras?.keyProbe }
        set {
            if let extras { extras.keyProbe = newValue } else if newValue != nil { madeExtras().keyProbe = newValue }
        }
        _modify {
            if let extras { yield &extras.keyProbe } else {
                var value: KeyProbe?
                defer { if value != nil { madeExtras().keyProbe = value } }
                yield &value
            }
        }
    }
}
