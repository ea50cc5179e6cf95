import Foundation

extension ManagedObject {
    /// The hooks a context has called on an object, for those Core Data calls once, whether one
    /// runs now with change tracking suspended, and the object's state flags, a bit each in one
    /// byte of the object's ``VersionAndFlags``.
    struct Lifecycle {
        /// The flags.
        private var flags: Flags

        init(rawValue: UInt8) {
            flags = Flags(rawValue: rawValue)
        }

        /// The flags' byte.
        var rawValue: UInt8 { flags.rawValue }

        /// The life cycle's flags and the object's.
        struct Flags: OptionSet {
            let rawValue: UInt8
            static let awokeFromInsert = Flags(rawValue: 1 << 0)
            /// Set once the object's deletion was prepared; cleared when it is no longer deleted.
            static let preparedForDeletion = Flags(rawValue: 1 << 1)
            /// Set while `awakeFromFetch` runs: values set then are the object's saved values.
            static let awakingFromFetch = Flags(rawValue: 1 << 2)
            /// ``ManagedObject/isInserted``.
            static let inserted = Flags(rawValue: 1 << 3)
            /// ``ManagedObject/isDeleted``.
            static let deleted = Flags(rawValue: 1 << 4)
            /// ``ManagedObject/awaitsNotice``.
            static let awaitsNotice = Flags(rawValue: 1 << 5)
            /// Set when `willSave` is called in the save running now; cleared when it ends.
            static let willSaveCalled = Flags(rawValue: 1 << 6)
            /// Set by every change (``ManagedObjectContext/markUpdated(_:)``), cleared when
            /// `willSave` is called: an object changed since is due another `willSave`.
            static let changedSinceWillSave = Flags(rawValue: 1 << 7)
        }

        /// Whether `flag` is set.
        subscript(flag: Flags) -> Bool {
            get { flags.contains(flag) }
            set { if newValue { flags.insert(flag) } else { flags.remove(flag) } }
        }
    }

    /// Sets the saved value of an attribute while `awakeFromFetch` runs, as Core Data's change
    /// processing is off then: the object does not become updated and the value is not saved.
    func setSavedValue(_ value: Any?, slot: Int) {
        guard var values = committed, values.indices.contains(slot) else { return }
        let kind = entity.slotKinds[slot]
        let normalized = Self.normalized(value, as: kind.type)
        values[slot] = kind.type == .transformable ? normalized.map { AttributeValueTransformer.data(for: $0, of: entity.slotAttributes[slot]) } : normalized
        committed = values
    }

    /// The default of `validateForInsert` and `validateForUpdate`: every property through
    /// ``validateValue(_:forKey:)``, its errors combined as a save combines them.
    func validateProperties() throws {
        if let error = ContextError.combined(ObjectValidator.propertyErrors(of: self)) { throw error }
    }

    /// The default of `validateForDelete`: the deny delete rules.
    func validateDeletion() throws {
        if let error = ContextError.combined(ObjectValidator.deleteErrors(of: self)) { throw error }
    }

    /// The default of `validateValue(_:forKey:)`: the model's rules for `key`.
    func validateModelRules(_ value: Any?, forKey key: String) throws {
        if let error = ObjectValidator.ruleError(value, forKey: key, of: self) { throw error }
    }
}

/// Where a context calls its objects' life-cycle hooks, as Core Data calls them.
extension ManagedObjectContext {
    /// How many rounds of `willSave` a save runs while objects keep changing in it before it
    /// fails (where Core Data raises an exception, which would end the app).
    static let willSaveRounds = 100

    /// Calls `awakeFromInsert` on an object just inserted, the first time only.
    func awakeFromInsert(_ object: ManagedObject) {
        guard !object.lifecycle[.awokeFromInsert] else { return }
        object.lifecycle[.awokeFromInsert] = true
        object.awakeFromInsert()
    }

    /// Calls `awakeFromFetch` on an object whose values were just read, with its changes kept
    /// out of the context's changes.
    func awakeFromFetch(_ object: ManagedObject) {
        object.lifecycle[.awakingFromFetch] = true
        defer { object.lifecycle[.awakingFromFetch] = false }
        object.awakeFromFetch()
    }

    /// Calls `prepareForDeletion` on a deleted object, the first time only.
    func prepareForDeletion(_ object: ManagedObject) {
        guard !object.lifecycle[.preparedForDeletion] else { return }
        object.lifecycle[.preparedForDeletion] = true
        object.prepareForDeletion()
    }

    /// Calls `willSave` on every inserted, updated and deleted object, then again on those that
    /// changed or joined the changes since (applying delete rules between rounds), until a round
    /// changes nothing; throws 134060 when objects still change after ``willSaveRounds`` rounds.
    func callWillSave() throws {
        // Every object `willSave` was called on in this save, whose mark is cleared when it ends,
        // however it ends (an object may have left the lists since).
        var called = [ManagedObject]()
        defer { for object in called { object.lifecycle[.willSaveCalled] = false } }
        for _ in 0..<Self.willSaveRounds {
            // Each list walked as the round starts (objects `willSave` adds wait for the next
            // round), not gathered first into a list of the objects due: that list retained and
            // released every object saved.
            var any = false
            for objects in [insertedList.objects, updatedList.objects, deletedList.objects] {
                for object in objects where !object.lifecycle[.willSaveCalled] || object.lifecycle[.changedSinceWillSave] {
                    any = true
                    if !object.lifecycle[.willSaveCalled] {
                        object.lifecycle[.willSaveCalled] = true
                        called.append(object)
                    }
                    object.lifecycle[.changedSinceWillSave] = false
                    object.willSave()
                }
            }
            guard any else { return }
            applyDeleteRules()
        }
        throw ContextError.make(
            134060, "Failed to process pending changes before save: the context is still dirty after \(Self.willSaveRounds) rounds of willSave")
    }

    /// Ends a save that wrote `inserted`, `updated` and `deleted`: `didSave` on each, then the
    /// did-save notifications.
    func didSave(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], historyToken: HistoryToken? = nil,
        announced: (inserted: Set<ManagedObject>?, updated: Set<ManagedObject>?) = (nil, nil)
    ) {
        for object in inserted { object.didSave() }
        for object in updated { object.didSave() }
        for object in deleted { object.didSave() }
        postDidSave(inserted: inserted, updated: updated, deleted: deleted, historyToken: historyToken, announced: announced)
    }
}
