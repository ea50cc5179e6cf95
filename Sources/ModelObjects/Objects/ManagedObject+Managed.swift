import Foundation
import ModelStore
import ModelSchema

/// The reads `@Managed` properties expand to: a property's value as the type its declaration
/// gives, with the number conversions `@NSManaged` makes (an Integer 64 read as `Int`, a number
/// as `NSNumber`, a decimal as `NSDecimalNumber`).
extension ManagedObject {
    /// The value of `key` as `Value`, nil when unset or of another kind.
    public func managedValue<Value>(forKey key: String, as type: Value.Type) -> Value? {
        Self.typed(value(forKey: key), as: type)
    }

    /// The value of the property `key` names as `Value`, nil when unset or of another kind:
    /// what generated accessors and `@Managed` properties read through. The key finds the
    /// property by its place in the entity, with no name to compare (``ManagedPropertyKey``).
    /// Inlined into the accessor, so that a saved number, boolean or date of the declared type
    /// reaches it without an `Any` or a dynamic cast, and other values are cast to its concrete type.
    @inlinable
    public func managedValue<Value>(for key: ManagedPropertyKey, as type: Value.Type) -> Value? {
        switch read(key) {
        case .int64(let value): value as? Value ?? Self.typed(value, as: type)
        case .int32(let value): value as? Value ?? Self.typed(value, as: type)
        case .int16(let value): value as? Value ?? Self.typed(value, as: type)
        case .bool(let value): value as? Value ?? Self.typed(value, as: type)
        case .double(let value): value as? Value ?? Self.typed(value, as: type)
        case .float(let value): value as? Value ?? Self.typed(value, as: type)
        case .date(let value): value as? Value ?? Self.typed(value, as: type)
        case .int(let value): value as? Value ?? Self.typed(value, as: type)
        case .string(let value): value as? Value ?? Self.typed(value, as: type)
        case .object(let value): value.flatMap { $0 as? Value ?? Self.typed($0, as: type) }
        case .value(let value): Self.typed(value, as: type)
        }
    }

    /// The value of the property `key` names, as ``value(forKey:)`` gives it.
    public func value(for key: ManagedPropertyKey) -> Any? {
        read(key).value
    }

    /// The value of the property `key` names, a number, boolean or date as itself (``AccessorValue``).
    @usableFromInline
    func read(_ key: ManagedPropertyKey) -> AccessorValue {
        if let context = violatedContext() { return context.onQueue { read(key) } }
        keyProbe?.keys.append(key.name)
        guard let index = index(of: key) else { return .value(nil) }
        let slot = entity.properties.attributeSlot(at: index)
        guard slot >= 0 else {
            let toOne = entity.properties.toOneSlot(at: index)
            guard toOne >= 0 else { return .value(value(at: index, key: key.name)) }
            observeAccess(key.keyPath)
            return .object(toOneValue(toOne))
        }
        observeAccess(key.keyPath)
        return attributeRead(slot)
    }

    /// Where the property `key` names is in the entity's table, nil when it has none. The entity
    /// of the key's last lookup is known by its serial alone, without retaining the entity.
    @inline(__always)
    private func index(of key: ManagedPropertyKey) -> Int? {
        key.knownIndex(inEntityWithSerial: entity.serial) ?? key.index(in: entity)
    }

    /// Sets the property `key` names, as ``setValue(_:forKey:)`` does.
    public func setValue(_ value: Any?, for key: ManagedPropertyKey) {
        write(.value(value), for: key)
    }

    /// Sets the property `key` names, as ``setValue(_:forKey:)`` does: what generated accessors
    /// and `@Managed` properties write through. Inlined into the accessor, so that a number,
    /// boolean or date of the type it declares reaches the object as itself, without an `Any`;
    /// a value of any other type (or a nil) takes the way ``setValue(_:forKey:)`` does.
    @inlinable
    public func setValue<Value>(_ value: Value?, for key: ManagedPropertyKey) {
        // Each test compares two types known once the accessor is specialized, so all but the
        // accessor's own fold away.
        if Value.self == Int64.self, let value = value as? Int64 { return write(.int64(value), for: key) }
        if Value.self == Int32.self, let value = value as? Int32 { return write(.int32(value), for: key) }
        if Value.self == Int16.self, let value = value as? Int16 { return write(.int16(value), for: key) }
        if Value.self == Int.self, let value = value as? Int { return write(.int(value), for: key) }
        if Value.self == Bool.self, let value = value as? Bool { return write(.bool(value), for: key) }
        if Value.self == Double.self, let value = value as? Double { return write(.double(value), for: key) }
        if Value.self == Float.self, let value = value as? Float { return write(.float(value), for: key) }
        if Value.self == Date.self, let value = value as? Date { return write(.date(value), for: key) }
        if Value.self == String.self, let value = value as? String { return write(.string(value), for: key) }
        write(.value(value), for: key)
    }

    /// Sets the property `key` names to `value`: a number, boolean, date or string the attribute
    /// holds straight into its slot, anything else as ``setValue(_:forKey:)`` sets it.
    @usableFromInline
    func write(_ value: AccessorValue, for key: ManagedPropertyKey) {
        if let context = violatedContext() { return context.onQueue { write(value, for: key) } }
        guard let index = index(of: key) else { return }
        let slot = entity.properties.attributeSlot(at: index)
        if slot >= 0 {
            let type = entity.slotKinds[slot].type
            if let scalar = value.scalar(as: type) { return setAttribute(scalar, slot: slot, key: key.name, index: index, keyPath: key.keyPath) }
            if case .string = value, type == .string { return setAttribute(value, slot: slot, key: key.name, index: index, keyPath: key.keyPath) }
        }
        setValue(value.value, of: entity.properties.property(at: index), key: key.name)
    }

    /// The value of the property `key` names for a property declared non-optional with no
    /// zero, as ``requiredManagedValue(forKey:as:)``.
    @inlinable
    public func requiredManagedValue<Value>(for key: ManagedPropertyKey, as type: Value.Type) -> Value {
        guard let value = managedValue(for: key, as: type) else {
            preconditionFailure("\(entity.name).\(key.name) is nil, but its @Managed property is declared non-optional \(Value.self)")
        }
        return value
    }

    /// `value` as `Value`, a number converted as `@NSManaged` converts it; nil for nil or another
    /// kind. Inlinable, so that the cast is to the caller's concrete type.
    @inlinable
    static func typed<Value>(_ value: Any?, as type: Value.Type) -> Value? {
        if let typed = value as? Value { return typed }
        return convertedNumber(value, to: type)
    }

    /// A number that is not a `Value` converted to one (an Integer 64 read as `Int`); nil for
    /// nil or another kind.
    @usableFromInline
    static func convertedNumber<Value>(_ value: Any?, to type: Value.Type) -> Value? {
        guard let number = Self.number(value) else { return nil }
        return Self.converted(number, to: type)
    }

    /// The value of `key` for a property declared non-optional with no zero (`var name: String`,
    /// `var author: Author`): Swift has no value to give for nil, and reading it stops the
    /// program as reading nil through such an `@NSManaged` property does.
    public func requiredManagedValue<Value>(forKey key: String, as type: Value.Type) -> Value {
        guard let value = managedValue(forKey: key, as: type) else {
            preconditionFailure("\(entity.name).\(key) is nil, but its @Managed property is declared non-optional \(Value.self)")
        }
        return value
    }

    /// A stored number as `NSNumber`, nil for any other value.
    private static func number(_ value: Any?) -> NSNumber? {
        switch value {
        case let value as Int64: NSNumber(value: value)
        case let value as Int32: NSNumber(value: value)
        case let value as Int16: NSNumber(value: value)
        case let value as Double: NSNumber(value: value)
        case let value as Float: NSNumber(value: value)
        case let value as Bool: NSNumber(value: value)
        case let value as Decimal: NSDecimalNumber(decimal: value)
        case let value as NSNumber: value
        default: nil
        }
    }

    /// `number` as the Swift or Foundation number type a property declares, nil for another type.
    private static func converted<Value>(_ number: NSNumber, to type: Value.Type) -> Value? {
        let converted: Any? = switch type {
        case is Int.Type: number.intValue
        case is Int64.Type: number.int64Value
        case is Int32.Type: number.int32Value
        case is Int16.Type: number.int16Value
        case is Double.Type: number.doubleValue
        case is Float.Type: number.floatValue
        case is Bool.Type: number.boolValue
        case is Decimal.Type: number.decimalValue
        case is NSDecimalNumber.Type: number as? NSDecimalNumber ?? NSDecimalNumber(decimal: number.decimalValue)
        case is NSNumber.Type: number
        default: nil
        }
        return converted as? Value
    }
}

/// A property's value as an accessor reads or writes it: a number, boolean, date or string as
/// itself, and a to-one's object as an object, so that an inlined accessor of that type takes or
/// gives it without an `Any` and a dynamic cast from it; any other value (transformable, a
/// to-many, data…) as ``ManagedObject/value(forKey:)`` gives it. An `Int` is only ever written:
/// reads give the type the attribute holds; an object is only ever read.
@usableFromInline
enum AccessorValue {
    case int64(Int64), int32(Int32), int16(Int16), bool(Bool), double(Double), float(Float), date(Date)
    case int(Int)
    case string(String)
    case object(ManagedObject?)
    case value(Any?)

    /// The value in `slot` of `values`, a number, boolean, date or string as itself.
    init(_ values: AttributeValues, _ slot: Int) {
        if let scalar = values.scalar(at: slot) {
            self.init(scalar)
        } else if let string = values.string(at: slot) {
            self = .string(string)
        } else {
            self = .value(values[slot])
        }
    }

    /// `scalar`, as itself.
    init(_ scalar: AttributeValues.Scalar) {
        self = switch scalar {
        case .int64(let value): .int64(value)
        case .int32(let value): .int32(value)
        case .int16(let value): .int16(value)
        case .bool(let value): .bool(value)
        case .double(let value): .double(value)
        case .float(let value): .float(value)
        case .date(let value): .date(value)
        }
    }

    /// The value as ``ManagedObject/value(forKey:)`` gives it.
    var value: Any? {
        switch self {
        case .int(let value): value
        case .string(let value): value
        case .object(let value): value
        case .value(let value): value
        default: scalar?.value
        }
    }

    /// The value kept as its bits, when it is one.
    var scalar: AttributeValues.Scalar? {
        switch self {
        case .int64(let value): .int64(value)
        case .int32(let value): .int32(value)
        case .int16(let value): .int16(value)
        case .bool(let value): .bool(value)
        case .double(let value): .double(value)
        case .float(let value): .float(value)
        case .date(let value): .date(value)
        case .int, .string, .object, .value: nil
        }
    }

    /// The value as an attribute of `type` holds it, when it is a number, boolean or date that
    /// needs no conversion but an integer's width (an `Int` for an Integer 64, 32 or 16 attribute,
    /// truncated as ``ManagedObject/setValue(_:forKey:)`` truncates it); nil for any other value,
    /// which takes the way of ``ManagedObject/setValue(_:forKey:)``.
    /// Switched on the value alone, then on the type: a switch on the pair copied the value, an
    /// `Any` among its cases, and destroyed the copy, a quarter of a typed setter's time.
    func scalar(as type: AttributeType) -> AttributeValues.Scalar? {
        switch self {
        case .int(let value):
            switch type {
            case .integer64: .int64(Int64(value))
            case .integer32: .int32(Int32(truncatingIfNeeded: value))
            case .integer16: .int16(Int16(truncatingIfNeeded: value))
            default: nil
            }
        case .int64(let value): type == .integer64 ? .int64(value) : nil
        case .int32(let value): type == .integer32 ? .int32(value) : nil
        case .int16(let value): type == .integer16 ? .int16(value) : nil
        case .bool(let value): type == .boolean ? .bool(value) : nil
        case .double(let value): type == .double ? .double(value) : nil
        case .float(let value): type == .float ? .float(value) : nil
        case .date(let value): type == .date ? .date(value) : nil
        case .string, .object, .value: nil
        }
    }
}
