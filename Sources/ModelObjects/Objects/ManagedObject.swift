import Foundation
import ModelSchema
import Observation
import ModelStore
import Synchronization

/// An object of the model (`NSManagedObject`), living in one context and confined to its queue:
/// its values are read from its row when first touched (a fault until then), changed in memory,
/// and written by the context's save. Generated classes subclass it with typed properties.
open class ManagedObject: NSObject {
    /// The entity the object is an instance of (`NSManagedObject.entity`); set once more only when
    /// an object made without a context is inserted into one of an equal model (``ManagedObjectContext/insert(_:)``).
    /// Unchecked for exclusivity: that one plain assignment never overlaps another access, and the
    /// runtime's check on every read cost a fetch 3 % of its time.
    @exclusivity(unchecked) public internal(set) var entity: EntityDescription
    /// The object's identity: temporary until its first save (or ``ManagedObjectContext/obtainPermanentIDs(for:)``), then the row's.
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID
    /// The context the object lives in; nil once it is deleted and saved, forgotten, or the
    /// context is gone (a weak reference: an object the app keeps can outlive its context, and
    /// reading its values after the first fault does not touch it).
    @exclusivity(unchecked) public private(set) weak var managedObjectContext: ManagedObjectContext?

    /// The row's version and the object's flags (VersionAndFlags.swift).
    @exclusivity(unchecked) private var versionAndFlags = VersionAndFlags(checksQueue: ConcurrencyDebug.isEnabled)
    /// The row's `Z_OPT` when read; 0 for a new object.
    var version: Int64 {
        get { versionAndFlags.version ?? extras?.wideVersion ?? 0 }
        set { if !versionAndFlags.setVersion(newValue) { madeExtras().wideVersion = newValue } }
    }
    /// When, and after which of the coordinator's saves, the saved values were read; nil until they are.
    @exclusivity(unchecked) var readStamp: ReadStamp?
    /// The saved attribute values in the order of the entity's row slots, and the saved to-ones'
    /// targets after them (``committedToOnes``); nil while a fault. Set through
    /// ``replaceSaved(with:)``, or after ``keepHeldToOnes(unchangedIn:)``, where the to-ones may
    /// change. Unchecked for exclusivity, as are the
    /// object's other stored state (its ID, its version and flags, and its side state): each is
    /// only assigned whole or read (a read in place calls nothing that could reach the object
    /// again, and an assignment stores the new value before the old one goes), so no two accesses
    /// overlap, and the runtime's checks on them cost a fetch of 200,000 objects read through
    /// typed accessors a tenth of its time.
    @exclusivity(unchecked) final var committed: AttributeValues?
    /// The objects held for the saved to-ones, the unsaved changes and the extras, each read as
    /// a property of its own (ObjectSideState.swift).
    @exclusivity(unchecked) final var side = ObjectSideState.none

    /// The saved to-ones' targets, in the order of the entity's to-one slots: kept in the saved
    /// values' words, with no allocation of their own; none while a fault.
    var committedToOnes: [ObjectKey?] { committed?.toOnes ?? [] }

    /// The saved to-one in `slot`'s target; nil for none, or while a fault.
    func committedToOne(_ slot: Int) -> ObjectKey? { committed?.toOneInPlace(at: slot) }

    /// Sets the saved values, their to-ones with them: a to-one whose target changed lets go of
    /// the object held for the old one, and one that kept its target (as most do through a save
    /// of other values) keeps holding it. With no saved values to compare, every held object goes.
    func replaceSaved(with values: consuming AttributeValues?) {
        // The values are not captured or copied: a fetch moves each row's values in here, and a
        // copy would retain their storage, long out of the cache by then, for every row.
        if !heldToOnes.isEmpty { keepHeldToOnes(unchangedIn: values?.toOnes ?? []) }
        committed = values
    }

    /// Lets go of the objects held for saved to-ones whose target `toOnes`, the saved to-ones
    /// about to replace them, changes, and keeps the others.
    func keepHeldToOnes(unchangedIn toOnes: [ObjectKey?]) {
        if !heldToOnes.isEmpty { heldToOnes = heldToOnes.keeping(from: committedToOnes, to: toOnes) }
    }
    /// Which hooks the context has called, for those it calls once, and the object's flags
    /// (``ManagedObject/Lifecycle``).
    var lifecycle: Lifecycle {
        @inline(__always) get { versionAndFlags.lifecycle }
        set { versionAndFlags.lifecycle = newValue }
    }
    var inserted: Bool {
        get { lifecycle[.inserted] }
        set { lifecycle[.inserted] = newValue }
    }
    var deleted: Bool {
        get { lifecycle[.deleted] }
        set {
            lifecycle[.deleted] = newValue
            if !newValue { lifecycle[.preparedForDeletion] = false }
        }
    }
    /// Whether the object changed since its context's last objects-did-change (it is then in
    /// the context's `changedSinceNotice`).
    var awaitsNotice: Bool {
        get { lifecycle[.awaitsNotice] }
        set { lifecycle[.awaitsNotice] = newValue }
    }
    /// Which of its context's change lists the object is in, a bit each (``ChangeList``).
    var listed: UInt8 {
        @inline(__always) get { versionAndFlags.listed }
        set { versionAndFlags.listed = newValue }
    }
    /// ``ConcurrencyDebug/isEnabled``, read once when the object is made: a read of the object
    /// then checks a stored flag instead of the global's lazy initialization, whose check cost a
    /// fetch read through typed accessors 2 % of its time.
    var checksQueue: Bool { versionAndFlags.checksQueue }

    /// Makes an object of `entity` and inserts it into `context`, as Core Data's designated
    /// initializer does; with no context, the object is inserted later by ``ManagedObjectContext/insert(_:)``.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        self.entity = entity
        objectID = ManagedObjectID(temporaryIn: entity.temporaryIDScope, number: TemporaryNumbers.next())
        super.init()
        context?.insert(self)
    }

    /// Makes an object of the entity whose class this is (``registeredEntity``) with no context,
    /// as `NSManagedObject()` does on Apple platforms: the object is usable and may be inserted
    /// later, and Core Data's complaint is logged, since the designated initializer is the one
    /// to call. A class no model made so far names has no entity to make an object of: that
    /// stops the program, as Core Data's "must have a valid NSEntityDescription" does.
    public override convenience init() {
        guard let entity = Self.registeredEntity else {
            preconditionFailure("An NSManagedObject of class '\(Self.self)' must have a valid NSEntityDescription: no model made so far has one")
        }
        FileHandle.standardError.write(Data("CoreData: error: Failed to call designated initializer on NSManagedObject class '\(Self.self)'\n".utf8))
        self.init(entity: entity, insertInto: nil)
    }

    /// Makes an object of the entity whose class this is, in `context`.
    public convenience init(context: ManagedObjectContext) {
        self.init(entity: context.entity(for: Self.self), insertInto: context)
    }

    func attach(to context: ManagedObjectContext, id: consuming ManagedObjectID) {
        managedObjectContext = context
        objectID = id
    }

    func detach() {
        managedObjectContext = nil
    }

    // MARK: - State

    /// Whether the object's values have not been read yet.
    public var isFault: Bool { committed == nil && !inserted }
    /// Whether the object was inserted into its context and not saved yet.
    public var isInserted: Bool { inserted }
    /// Whether the object was deleted from its context and the deletion not saved yet.
    public var isDeleted: Bool { deleted }
    /// Whether the object has unsaved changes to its properties (an inserted or deleted object counts as changed).
    public var isUpdated: Bool { !inserted && !deleted && (hasPendingValues || !changedToManys.isEmpty) }
    /// Whether the object is inserted, deleted or updated: a save would write it.
    public var hasChanges: Bool { inserted || deleted || hasPendingValues || !changedToManys.isEmpty }

    /// Attributes and to-ones changed since the last save (empty values for an object without
    /// changes; a change boxes them, and emptying them lets the box go).
    final var pending: PendingValues {
        get { pendingChanges?.values ?? PendingValues() }
        // A plain assignment (a save settling every object it wrote) takes the setter: the
        // `_modify` below allocates its frame when there is no box, the values being too large
        // for the caller's fixed buffer.
        set {
            if let box = pendingChanges {
                if newValue.isEmpty { pendingChanges = nil } else { box.values = newValue }
            } else if !newValue.isEmpty {
                pendingChanges = PendingChanges(newValue)
            }
        }
        _modify {
            // Deferred, so that the box follows the values however the access ends.
            if let box = pendingChanges {
                defer { if box.values.isEmpty { pendingChanges = nil } }
                yield &box.values
            } else {
                var values = PendingValues()
                defer { if !values.isEmpty { pendingChanges = PendingChanges(values) } }
                yield &values
            }
        }
    }

    /// Runs `body` on the unsaved values in their box, lent in place rather than copied (a copy
    /// retains and releases each of their parts: a sixth of writing a saved object's row).
    /// `body` must not change the object's values.
    final func readingPending<Result>(_ body: (inout PendingValues) throws -> Result) rethrows -> Result {
        if let box = pendingChanges { return try body(&box.values) }
        var none = PendingValues()
        return try body(&none)
    }

    /// Lets every unsaved value go, as assigning empty values does, without making them.
    final func discardPendingValues() {
        pendingChanges = nil
    }

    /// Whether the object has unsaved changes of attributes or to-ones.
    var hasPendingValues: Bool { pendingChanges != nil }

    /// Makes `change` to the unsaved values, boxing them when they were empty and letting the
    /// box go when the change leaves them empty: ``pending``'s change in place without its
    /// `_modify`, which allocates its frame when there is no box (once for every new object).
    func changePending(_ change: (inout PendingValues) -> Void) {
        if let box = pendingChanges {
            change(&box.values)
            if box.values.isEmpty { pendingChanges = nil }
            return
        }
        var values = PendingValues()
        change(&values)
        if !values.isEmpty { pendingChanges = PendingChanges(consume values) }
    }

    /// Makes `change` to the unsaved values, a change that leaves them not empty (a value set):
    /// a setter's way, without the check for emptiness ``pending``'s access makes after each use.
    func addToPending(_ change: (inout PendingValues) -> Void) {
        if let box = pendingChanges { return change(&box.values) }
        var values = PendingValues()
        change(&values)
        pendingChanges = PendingChanges(consume values)
    }

    /// The persistent properties changed since the last save and their new values (to-manys as
    /// sets); transient attributes are left out, as Core Data leaves them out.
    public func changedValues() -> [String: Any] {
        if let context = violatedContext() { return context.onQueue { changedValues() } }
        var result = [String: Any]()
        let shape = entity.shape
        let pending = pending
        for slot in shape.attributes.indices {
            if let value = pending.attribute(slot) { result[shape.attributes[slot].name] = value ?? NSNull() }
        }
        for slot in shape.toOnes.indices {
            if let target = pending.toOne(slot) { result[shape.toOnes[slot].name] = target ?? NSNull() }
        }
        for key in changedToManys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    /// The saved values of `keys` (every attribute and to-one when nil), as the store has them.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        if let context = violatedContext() { return context.onQueue { committedValues(forKeys: keys) } }
        guard !inserted else { return [:] }
        managedObjectContext?.fulfill(self)
        var result = [String: Any]()
        for key in keys ?? Array(entity.properties.keys) {
            switch entity.properties[key] {
            case .attribute(let attribute, let slot)?:
                result[key] = committed?[slot].flatMap { AttributeValueTransformer.object(from: $0, for: attribute) } ?? NSNull()
            case .toOne(_, let slot?)?:
                result[key] = committedToOne(slot).flatMap { managedObjectContext?.registeredOrFault($0) } ?? NSNull()
            case .toMany(let relationship)?:
                result[key] = NSSet(array: committedToManys[relationship.name] ?? managedObjectContext?.contents(of: relationship, in: self).objects ?? [])
            default:
                continue
            }
        }
        return result
    }

    // MARK: - Life cycle and validation (called by the context: ManagedObject+Lifecycle.swift)

    /// Called once in the object's lifetime, when it is first inserted into a context (by
    /// `init(context:)` or ``ManagedObjectContext/insert(_:)``): the object is inserted, with a
    /// temporary ID and its defaults; values set here are part of the insert. Call super first.
    open func awakeFromInsert() {}

    /// Called each time the object's values are read from its store (a fault fulfilled, a fetch
    /// filling it): values set here establish caches and transients without changing the object
    /// (it is not updated, and they are not saved unless changed again later). Relationships are
    /// not to be set here: Core Data leaves their inverse unset. Call super first.
    open func awakeFromFetch() {}

    /// Called on each inserted, updated and deleted object before a save validates and writes
    /// them; values set here are saved. An object changed here is asked again, so set a value only
    /// when it differs: a save whose objects keep changing fails (see ``ManagedObjectContext/save()``).
    open func willSave() {}

    /// Called on each object a save wrote (inserted, updated, deleted), after it was written;
    /// changes made here are new unsaved changes of the context.
    open func didSave() {}

    /// Called once when the object is about to be deleted: by a save (or
    /// ``ManagedObjectContext/processPendingChanges()``) before its relationships' delete rules
    /// apply, at once when a new object is deleted; it is deleted and its relationships still hold.
    open func prepareForDeletion() {}

    /// Checks a new object before a save writes it; the default checks each property through
    /// ``validateValue(_:forKey:)`` and throws its error (1560 listing several). An error thrown
    /// here fails the save with it. Override to add checks, calling super.
    open func validateForInsert() throws { try validateProperties() }

    /// Checks a changed object before a save writes it, as ``validateForInsert()`` does.
    open func validateForUpdate() throws { try validateProperties() }

    /// Checks that a deleted object may be deleted: the default fails (1600) when a relationship
    /// whose delete rule is Deny still has a destination. Override to add checks, calling super.
    open func validateForDelete() throws { try validateDeletion() }

    /// Checks (and may replace) `value` for property `key`: the default applies the model's rules
    /// (required, bounds, lengths, pattern, counts). Core Data's `validateValue(_:forKey:)` finds an
    /// app's `validate<Key>(_:)` methods through the Objective-C runtime, which Swift has not on
    /// Linux: override this method instead, switching on `key` and calling super for the others.
    open func validateValue(_ value: inout Any?, forKey key: String) throws { try validateModelRules(value, forKey: key) }

    // MARK: - Key-value coding

    /// The value of the property `key`: an attribute's value, a to-one's object, a to-many's
    /// `NSSet` (`NSOrderedSet` when ordered); nil for an unknown key. The read is registered
    /// with Observation (ManagedObject+Observation.swift).
    open func value(forKey key: String) -> Any? {
        if let context = violatedContext() { return context.onQueue { value(forKey: key) } }
        keyProbe?.keys.append(key)
        guard let index = entity.properties.index(of: key) else { return nil }
        return value(at: index, key: key)
    }

    /// The value of the property at `index` of the entity's table, named `key`, its read
    /// registered with Observation.
    func value(at index: Int, key: String) -> Any? {
        observeAccess(at: index)
        return value(ofPropertyAt: index, key: key)
    }

    /// The value of the property at `index` of the entity's table, named `key`, its read not
    /// registered: for the object layer's own reads (a save's validation).
    func value(ofPropertyAt index: Int, key: String) -> Any? {
        let slot = entity.properties.attributeSlot(at: index)
        guard slot >= 0 else { return value(of: entity.properties.property(at: index), key: key) }
        return attributeValue(slot)
    }

    /// The value of the stored attribute in row slot `slot`: its unsaved value, or its saved one
    /// (the fault fulfilled first), a transformable's data transformed. Made an `Any` at once, not
    /// through ``AccessorValue``: a save's validation reads every attribute of every saved object.
    func attributeValue(_ slot: Int) -> Any? {
        if entity.hasTransformableSlots, entity.slotKinds[slot].type == .transformable { return attributeRead(slot).value }
        if let changes = pendingChanges, let value = changes.values.attributeInPlace(slot) { return value }
        if committed == nil { managedObjectContext?.fulfill(self) }
        return committed?.valueInPlace(at: slot) ?? nil
    }

    /// ``attributeValue(_:)`` with a number, boolean, date or string as itself (``AccessorValue``),
    /// for the typed accessors.
    func attributeRead(_ slot: Int) -> AccessorValue {
        let transformable = entity.hasTransformableSlots && entity.slotKinds[slot].type == .transformable
        if let changes = pendingChanges, changes.values.changedAttributes.contains(slot) {
            return transformable ? .value(changes.values.attributes[slot]) : AccessorValue(changes.values.attributes, slot)
        }
        // A saved number, boolean or date first, lent in place (the values' storage not retained
        // for the read): one access to the saved values where asking whether the object is a
        // fault first made two. A fault has none, and is fulfilled below. Strings come after: a
        // read that asked for both at once was slower for numbers.
        if !transformable, let scalar = committed?.scalarInPlace(at: slot) { return AccessorValue(scalar) }
        if committed == nil {
            managedObjectContext?.fulfill(self)
            if !transformable, let scalar = committed?.scalarInPlace(at: slot) { return AccessorValue(scalar) }
        }
        if !transformable, let string = committed?.stringInPlace(at: slot) { return .string(string) }
        if transformable {
            return .value(committed?[slot].flatMap { AttributeValueTransformer.object(from: $0, for: entity.slotAttributes[slot]) })
        }
        return .value(committed?[slot] ?? nil)
    }

    /// Holds `target`, what the saved to-one in `slot` reads as now (see ``heldToOnes``).
    private func hold(_ target: ManagedObject, toOne slot: Int) {
        switch heldToOnes {
        case .none where slot == 0, .first where slot == 0:
            heldToOnes = .first(target)
        case .none, .first:
            var all = [ManagedObject?](repeating: nil, count: committed?.toOneCount ?? 0)
            if case .first(let first) = heldToOnes { all[0] = first }
            all[slot] = target
            heldToOnes = .all(all)
        case .all(var all):
            guard all[slot] !== target else { return }
            heldToOnes = .none
            all[slot] = target
            heldToOnes = .all(all)
        }
    }

    /// The value of a property already looked up in the entity.
    func value(of property: EntityDescription.Property, key: String) -> Any? {
        switch property {
        case .attribute(_, let slot):
            return attributeValue(slot)
        case .toOne(_, let slot?):
            return toOneValue(slot)
        case .toMany(let relationship):
            let objects = managedObjectContext?.contents(of: relationship, in: self).objects ?? toManys[key]?.objects ?? []
            return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
        case .transient:
            return transients[key]
        case .toOne(_, nil):
            return pending.transient(key) ?? nil
        }
    }

    /// The object the stored to-one in slot `slot` of the row's to-ones links to: its unsaved
    /// target, or its saved one (the fault fulfilled first), nil for none.
    func toOneValue(_ slot: Int) -> ManagedObject? {
        // Asked of the box in place: ``pending`` would copy the values out, or make empty ones.
        if let changed = pendingChanges?.values.toOne(slot) { return changed }
        guard let context = managedObjectContext else { return nil }
        context.fulfill(self)
        guard let key = committedToOne(slot), let target = context.registeredOrFault(key) else { return nil }
        hold(target, toOne: slot)
        return target
    }

    /// Sets the property `key`: an attribute's value, a to-one's object (its inverse follows), or
    /// a to-many's objects (`NSSet`, `NSOrderedSet`, `Set` or array). Derived attributes are
    /// read-only and keep their value; an unknown key is ignored. An object not yet inserted
    /// (made with no context) keeps its attributes' values until it is, as Core Data's does;
    /// its relationships need a context and are left as they are.
    open func setValue(_ value: Any?, forKey key: String) {
        if let context = violatedContext() { return context.onQueue { setValue(value, forKey: key) } }
        guard let property = entity.properties[key] else { return }
        setValue(value, of: property, key: key)
    }

    /// Sets the property `key`, already looked up in the entity, as ``setValue(_:forKey:)`` does.
    func setValue(_ value: Any?, of property: EntityDescription.Property, key: String) {
        guard !deleted else { return }
        let context = managedObjectContext
        switch property {
        case .attribute(_, let slot):
            setAttribute(.value(Self.normalized(value, as: entity.slotKinds[slot].type)), slot: slot, key: key)
        case .transient(let attribute):
            let normalized = Self.normalized(value, as: attribute.type)
            if lifecycle[.awakingFromFetch] { return transients[key] = normalized }
            if let context, context.undoManager != nil { context.registerValueUndo(self, key: key) }
            observingChange(of: key) {
                addToPending { $0.setTransient(normalized, name: key) }
                transients[key] = normalized
                context?.markUpdated(self)
            }
        case .toOne(let relationship, _):
            context?.setToOne(relationship, of: self, to: value as? ManagedObject)
        case .toMany(let relationship):
            context?.replaceToMany(relationship, of: self, with: Self.objects(in: value))
        }
    }

    /// Sets the stored attribute in `slot`, named `key`, to `value`, already of the attribute's
    /// type: a change of the object, announced, undoable, saved by the next save; while the
    /// object awakes from a fetch, a saved value instead. Derived attributes keep their value.
    /// `index` is the property's place in the entity's table, and `keyPath` the key path
    /// Observation tracks it by, when the caller has them (a generated accessor's key holds both).
    func setAttribute(_ value: AccessorValue, slot: Int, key: String, index: Int? = nil, keyPath: ObservedKeyPath? = nil) {
        changeAttribute(slot: slot, key: key, index: index, keyPath: keyPath, saved: { value.value }) { $0.setAttribute(value, slot: slot, of: $1) }
    }

    /// ``setAttribute(_:slot:key:index:keyPath:)`` for a number, boolean or date of the attribute's own
    /// type, a typed setter's value: kept as its bits, with no ``AccessorValue`` made and
    /// destroyed around it (an enum with an `Any` among its cases, copied through memory).
    func setAttribute(_ scalar: AttributeValues.Scalar, slot: Int, key: String, index: Int, keyPath: ObservedKeyPath? = nil) {
        changeAttribute(slot: slot, key: key, index: index, keyPath: keyPath, saved: { scalar.value }) { $0.setAttribute(scalar, slot: slot, of: $1) }
    }

    /// The steps every change of a stored attribute takes, `set` storing the value into the
    /// unsaved values (given the entity's number of slots), `saved` giving it as a saved value.
    @inline(__always)
    private func changeAttribute(
        slot: Int, key: String, index: Int?, keyPath: ObservedKeyPath?, saved: () -> Any?, _ set: (inout PendingValues, Int) -> Void
    ) {
        guard !deleted else { return }
        let kind = entity.slotKinds[slot]
        guard !kind.isDerived else { return }
        if lifecycle[.awakingFromFetch] { return setSavedValue(saved(), slot: slot) }
        // A new object already awaiting the next objects-did-change is in every list of its
        // context a change would put it in; unless some context records undo, its change needs
        // nothing of its context, whose weak reference cost a quarter of a setter to load.
        let contextKnows = inserted && awaitsNotice && ManagedObjectContext.undoingContexts.load(ordering: .relaxed) == 0
        let context = contextKnows ? nil : managedObjectContext
        if let context, context.undoManager != nil { context.registerValueUndo(self, key: key) }
        observingChange(of: key, at: index, keyPath: keyPath) {
            let count = entity.slotKinds.count
            addToPending { set(&$0, count) }
            if contextKnows { lifecycle[.changedSinceWillSave] = true } else { context?.markUpdated(self) }
        }
    }

    /// The attribute values set on the object, by name (`NSNull` for nil), for a batch insert
    /// that takes its values from objects.
    func setAttributeValues() -> [String: Any] {
        var values = [String: Any]()
        let shape = entity.shape
        let pending = pending
        for slot in shape.attributes.indices {
            if let value = pending.attribute(slot) { values[shape.attributes[slot].name] = value ?? NSNull() }
        }
        return values
    }

    /// A number given as another Swift or Foundation type, in the type the attribute holds.
    static func normalized(_ value: Any?, as type: AttributeType) -> Any? {
        guard let value else { return nil }
        // The type the attribute holds already: as it is (one cast, no trip through NSNumber).
        let holds = switch type {
        case .integer64: value is Int64
        case .integer32: value is Int32
        case .integer16: value is Int16
        case .double: value is Double
        case .float: value is Float
        case .boolean: value is Bool
        case .string: value is String
        case .date: value is Date
        case .binary: value is Data
        case .decimal: value is Decimal
        default: false
        }
        if holds { return value }
        if value is NSNull { return nil }
        let number: NSNumber? = switch value {
        case let number as NSNumber where !(value is Bool) || type == .boolean: number
        case let integer as Int: NSNumber(value: integer)
        default: nil
        }
        guard let number else { return value }
        switch type {
        case .integer16: return Int16(truncatingIfNeeded: number.int64Value)
        case .integer32: return Int32(truncatingIfNeeded: number.int64Value)
        case .integer64: return number.int64Value
        case .double: return number.doubleValue
        case .float: return number.floatValue
        case .boolean: return number.boolValue
        case .decimal: return number.decimalValue
        default: return value
        }
    }

    /// The objects of a to-many value in order.
    static func objects(in value: Any?) -> [ManagedObject] {
        switch value {
        case let set as NSOrderedSet: return set.array.compactMap { $0 as? ManagedObject }
        case let set as NSSet: return set.allObjects.compactMap { $0 as? ManagedObject }
        case let array as [ManagedObject]: return array
        case let set as Set<ManagedObject>: return Array(set)
        default: return []
        }
    }

    // MARK: - Relationship mutators (the generated accessors call these)

    /// Adds `object` to the to-many relationship `key`, its inverse following; what a generated
    /// `addTo<Key>(_:)` calls. An unknown key, or one that is not a to-many, is ignored.
    public func addObject(_ object: ManagedObject, toRelationship key: String) {
        if let context = violatedContext() { return context.onQueue { addObject(object, toRelationship: key) } }
        guard case .toMany(let relationship)? = entity.properties[key] else { return }
        managedObjectContext?.link(object, into: relationship, of: self, at: nil)
    }

    /// Removes `object` from the to-many relationship `key`, its inverse following; what a
    /// generated `removeFrom<Key>(_:)` calls.
    public func removeObject(_ object: ManagedObject, fromRelationship key: String) {
        if let context = violatedContext() { return context.onQueue { removeObject(object, fromRelationship: key) } }
        guard case .toMany(let relationship)? = entity.properties[key] else { return }
        managedObjectContext?.unlink(object, from: relationship, of: self)
    }

    /// Adds each object of `objects` to the to-many relationship `key`.
    public func addObjects(_ objects: NSSet, toRelationship key: String) {
        for case let object as ManagedObject in objects.allObjects { addObject(object, toRelationship: key) }
    }

    /// Removes each object of `objects` from the to-many relationship `key`.
    public func removeObjects(_ objects: NSSet, fromRelationship key: String) {
        for case let object as ManagedObject in objects.allObjects { removeObject(object, fromRelationship: key) }
    }

    /// Adds the objects of `objects`, in their order, to the to-many relationship `key`.
    public func addObjects(_ objects: NSOrderedSet, toRelationship key: String) {
        for case let object as ManagedObject in objects.array { addObject(object, toRelationship: key) }
    }

    /// Removes the objects of `objects` from the to-many relationship `key`.
    public func removeObjects(_ objects: NSOrderedSet, fromRelationship key: String) {
        for case let object as ManagedObject in objects.array { removeObject(object, fromRelationship: key) }
    }

    /// Inserts `object` at `index` of the ordered to-many relationship `key`; what a generated
    /// `insertInto<Key>(_:at:)` calls.
    public func insertObject(_ object: ManagedObject, inRelationship key: String, at index: Int) {
        if let context = violatedContext() { return context.onQueue { insertObject(object, inRelationship: key, at: index) } }
        guard case .toMany(let relationship)? = entity.properties[key] else { return }
        managedObjectContext?.link(object, into: relationship, of: self, at: index)
    }

    /// Removes the object at `index` of the ordered to-many relationship `key`; an index out of
    /// range removes nothing.
    public func removeObject(inRelationship key: String, at index: Int) {
        if let context = violatedContext() { return context.onQueue { removeObject(inRelationship: key, at: index) } }
        guard case .toMany(let relationship)? = entity.properties[key], let context = managedObjectContext else { return }
        let objects = context.contents(of: relationship, in: self).objects
        guard objects.indices.contains(index) else { return }
        context.unlink(objects[index], from: relationship, of: self)
    }

    /// Puts `object` in place of the object at `index` of the ordered to-many relationship `key`.
    public func replaceObject(inRelationship key: String, at index: Int, with object: ManagedObject) {
        removeObject(inRelationship: key, at: index)
        insertObject(object, inRelationship: key, at: index)
    }

    /// Objects are equal only to themselves (NSObject's `isEqual`), as `NSManagedObject`s are;
    /// the hash is the object's address, which sets of objects (a save's notifications hold three
    /// of every object saved) get without hashing twice.
    open override var hash: Int { Int(bitPattern: ObjectIdentifier(self)) }


    // MARK: - Faulting

    /// Called before the object turns into a fault (a refresh, a reset), while its values can
    /// still be read, as Core Data's `willTurnIntoFault()`; does nothing by default.
    open func willTurnIntoFault() {}

    /// Called after the object turned into a fault, its transient values already cleared, as
    /// Core Data's `didTurnIntoFault()`: the place to clear caches of its own; does nothing by default.
    open func didTurnIntoFault() {}

    /// The class and the object's ID, and "(fault)" while its values are not read, as Core Data describes an object.
    open override var description: String {
        "<\(type(of: self)): \(objectID)>\(isFault ? " (fault)" : "")"
    }
}

extension ManagedObject {
    /// The value of attribute `key` as its column holds it: a transformable's data untransformed,
    /// everything else as ``value(forKey:)`` gives it. For tools that show stores as they are.
    public func storedValue(forKey key: String) -> Any? {
        if let context = violatedContext() { return context.onQueue { storedValue(forKey: key) } }
        guard case .attribute(let attribute, let slot)? = entity.properties[key], attribute.type == .transformable else {
            return value(forKey: key)
        }
        if let changed = pending.attribute(slot) { return changed.map { AttributeValueTransformer.data(for: $0, of: attribute) } }
        managedObjectContext?.fulfill(self)
        return committed?[slot] ?? nil
    }
}

extension Set {
    /// A set of `elements`, all different, with room for twice as many: a probe of a table at
    /// most half full meets few entries, and a set of objects compares each entry it meets
    /// through `isEqual`, which reads that object from memory. A notification's sets of tens of
    /// thousands of objects or IDs cost a few reads per element instead of several.
    ///
    /// The elements go in by `update(with:)`, which hands nothing back for a new element, where
    /// `insert` hands back each one, retained and released.
    init(halfFull elements: some Collection<Element>) {
        self.init(minimumCapacity: 2 * elements.count)
        for element in elements { update(with: element) }
    }
}
