import Foundation
import ModelSchema

/// Converts a transformable attribute's value to the data its column holds and back, as
/// Foundation's `ValueTransformer` does on Apple platforms; Foundation on Linux lacks it, and there
/// the object layer gives this class that name too. Register one by the name the model's attribute
/// gives (`valueTransformerName`).
open class AttributeValueTransformer: @unchecked Sendable {
    /// The names of value transformers (Foundation's `NSValueTransformerName`).
    public struct Name: RawRepresentable, Hashable, Sendable {
        /// The name.
        public let rawValue: String
        /// The transformer name `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The transformer name `rawValue`.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The default of transformable attributes: keyed archives of Foundation's common classes.
        public static let secureUnarchiveFromDataTransformerName = Name("NSSecureUnarchiveFromData")
    }

    private static let registry = Mutex<[String: AttributeValueTransformer]>([:])
    /// For a transformer made by ``init(forName:)``, the registered one it answers for: Swift's
    /// initializer cannot return that instance itself, as Foundation's factory method does.
    private let standIn: AttributeValueTransformer?

    /// A transformer; subclasses override the two transformations.
    public init() { standIn = nil }

    private init(standingFor registered: AttributeValueTransformer) { standIn = registered }

    /// The object for stored `value` (data), or nil when it cannot be read.
    open func transformedValue(_ value: Any?) -> Any? {
        if let standIn { return standIn.transformedValue(value) }
        return value
    }

    /// The data to store for `value`.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        if let standIn { return standIn.reverseTransformedValue(value) }
        return value
    }

    /// Whether values can be turned back into data; true, as stores must write them.
    open class func allowsReverseTransformation() -> Bool { true }

    /// Registers `transformer` under `name`; nil removes it.
    public class func setValueTransformer(_ transformer: AttributeValueTransformer?, forName name: Name) {
        registry.withLock { $0[name.rawValue] = transformer }
    }

    /// The transformer registered under `name`, nil when none is: its transformations are the
    /// registered transformer's.
    public convenience init?(forName name: Name) {
        guard let registered = Self.registry.withLock({ $0[name.rawValue] }) else { return nil }
        self.init(standingFor: registered)
    }

    static func registered(_ name: String) -> AttributeValueTransformer? { registry.withLock { $0[name] } }

    /// The value an object shows for a column's value of `attribute`: transformable data through
    /// the attribute's transformer (or the secure unarchiver), everything else as it is.
    static func object(from stored: Any, for attribute: Attribute) -> Any? {
        guard attribute.type == .transformable, let data = stored as? Data else { return stored }
        if let name = attribute.valueTransformerName, name != Name.secureUnarchiveFromDataTransformerName.rawValue {
            return registered(name)?.transformedValue(data) ?? data
        }
        return SecureUnarchiveFromData.object(from: data) ?? data
    }

    /// The data to store for a transformable attribute's object.
    static func data(for object: Any, of attribute: Attribute) -> Any {
        guard attribute.type == .transformable, !(object is Data) else { return object }
        if let name = attribute.valueTransformerName, let transformer = registered(name) {
            return transformer.reverseTransformedValue(object) ?? object
        }
        return SecureUnarchiveFromData.data(for: object) ?? object
    }
}

/// `NSSecureUnarchiveFromDataTransformer`: keyed archives of Foundation's property-list classes.
enum SecureUnarchiveFromData {
    static func object(from data: Data) -> Any? {
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = false
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    }

    static func data(for object: Any) -> Data? {
        try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    }
}
