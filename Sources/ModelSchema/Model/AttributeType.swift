#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An attribute's type: the XML `attributeType` spelling and Core Data's `NSAttributeType` code.
public enum AttributeType: UInt32, Sendable, Hashable, CaseIterable {
    /// Written by omitting `attributeType`; Xcode allows it only on transient attributes.
    case undefined = 0
    case integer16 = 100
    case integer32 = 200
    case integer64 = 300
    case decimal = 400
    case double = 500
    case float = 600
    case string = 700
    case boolean = 800
    case date = 900
    case binary = 1000
    case uuid = 1100
    case uri = 1200
    case transformable = 1800
    case objectID = 2000
    case composite = 2100

    /// The spelling Xcode writes in `attributeType`; `nil` for ``undefined``.
    public var xmlName: String? {
        xmlSpelling.map { $0.description }
    }

    /// ``xmlName`` as static bytes, which a reader compares without making a string.
    public var xmlSpelling: StaticString? {
        switch self {
        case .undefined: nil
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binary: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        }
    }

    /// The type for an XML `attributeType` value, or `nil` when the spelling is unknown.
    public init?(xmlName: String) {
        var name = xmlName
        guard let match = name.withUTF8({ Self(xmlSpelling: $0) }) else { return nil }
        self = match
    }

    /// The type whose spelling is exactly `bytes` (UTF-8, references resolved), or `nil`.
    public init?(xmlSpelling bytes: UnsafeBufferPointer<UInt8>) {
        for type in Self.all {
            guard let spelling = type.xmlSpelling, spelling.utf8CodeUnitCount == bytes.count else { continue }
            if bytes.count == 0 || memcmp(spelling.utf8Start, bytes.baseAddress!, bytes.count) == 0 {
                self = type
                return
            }
        }
        return nil
    }

    /// ``allCases`` once: the synthesized property builds a new array at each call.
    private static let all = allCases

    /// Whether values are numbers that `minValueString`/`maxValueString` compare numerically.
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: true
        default: false
        }
    }

    /// Whether the type is one of the integer types.
    public var isInteger: Bool {
        self == .integer16 || self == .integer32 || self == .integer64
    }
}
