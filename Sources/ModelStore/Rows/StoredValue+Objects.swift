import Foundation
import GRDB
import ModelSchema

/// Column values as managed objects hold them, both ways: `String`, `Int16`, `Int32`, `Int64`,
/// `Double`, `Float`, `Decimal`, `Bool`, `Date`, `Data` (binary and transformable), `UUID`, `URL`.
extension StoredValue {
    /// The value a managed object holds for a column of an attribute of `type`.
    package static func object(_ value: DatabaseValue, as type: AttributeType) -> Any? {
        switch value.storage {
        case .null:
            return nil
        case .int64(let number):
            switch type {
            case .integer16: return Int16(truncatingIfNeeded: number)
            case .integer32: return Int32(truncatingIfNeeded: number)
            case .integer64: return number
            case .boolean: return number != 0
            case .double: return Double(number)
            case .float: return Float(number)
            case .decimal: return Decimal(number)
            case .date: return Date(timeIntervalSinceReferenceDate: Double(number))
            case .string: return String(number)
            default: return number
            }
        case .double(let number):
            switch type {
            case .double: return number
            case .float: return Float(number)
            case .date: return Date(timeIntervalSinceReferenceDate: number)
            // Through the double's shortest text, as `decode` does, so 0.07 reads as 0.07.
            case .decimal: return Decimal(string: String(number)) ?? Decimal(number)
            case .integer16: return Int16(clamping: Int64(exactly: number.rounded(.towardZero)) ?? 0)
            case .integer32: return Int32(clamping: Int64(exactly: number.rounded(.towardZero)) ?? 0)
            case .integer64: return Int64(exactly: number.rounded(.towardZero)) ?? 0
            case .boolean: return number != 0
            case .string: return String(number)
            default: return number
            }
        case .string(let text):
            switch type {
            case .uri: return URL(string: text) ?? text
            case .uuid: return UUID(uuidString: text) ?? text
            case .decimal: return Decimal(string: text) ?? text
            default: return text
            }
        case .blob(let data):
            if type == .uuid, data.count == 16 {
                return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            }
            return data
        }
    }

    /// The column value for `value` in an attribute of `type`; throws for a value the type cannot
    /// hold (a string in an integer attribute), as Core Data's save refuses it.
    package static func databaseValue(object value: Any?, as type: AttributeType) throws -> DatabaseValue {
        guard let value else { return .null }
        // The Swift type objects hold for the attribute's type: one cast (a save makes one per value).
        switch type {
        case .integer64: if let number = value as? Int64 { return number.databaseValue }
        case .integer32: if let number = value as? Int32 { return Int64(number).databaseValue }
        case .integer16: if let number = value as? Int16 { return Int64(number).databaseValue }
        case .double: if let number = value as? Double { return number.databaseValue }
        case .boolean: if let flag = value as? Bool { return (flag ? 1 : 0).databaseValue }
        case .string: if let text = value as? String { return text.databaseValue }
        default: break
        }
        switch value {
        case let text as String: return try encode(.string(text), as: type)
        case let flag as Bool: return try encode(.bool(flag), as: type)
        case let number as Int64: return try encode(.integer(number), as: type)
        case let number as Int: return try encode(.integer(Int64(number)), as: type)
        case let number as Int32: return try encode(.integer(Int64(number)), as: type)
        case let number as Int16: return try encode(.integer(Int64(number)), as: type)
        case let number as Double: return try encode(.double(number), as: type)
        case let number as Float: return try encode(.double(Double(number)), as: type)
        case let number as Decimal: return try encode(.decimal(number), as: type)
        case let date as Date: return try encode(.date(date), as: type)
        case let data as Data: return try encode(.data(data), as: type)
        case let id as UUID: return try encode(.uuid(id), as: type)
        case let url as URL: return try encode(.uri(url), as: type)
        case let number as NSNumber:
            let isInteger = [.integer16, .integer32, .integer64, .boolean].contains(type)
            return try encode(isInteger ? .integer(number.int64Value) : .double(number.doubleValue), as: type)
        default:
            throw StoredValueError(message: "a \(Swift.type(of: value)) cannot be stored in a \(type.xmlName ?? "stored") attribute")
        }
    }
}

extension StoredValue {
    /// The column value of slot `slot` of `values` for an attribute of `type`: an integer, a
    /// boolean or a double of the attribute's own type straight from its bits, without an `Any`;
    /// any other value as ``databaseValue(object:as:)`` makes it.
    package static func databaseValue(_ values: AttributeValues, at slot: Int, as type: AttributeType) throws -> DatabaseValue {
        switch (values.scalar(at: slot), type) {
        case (.int64(let number)?, .integer64): number.databaseValue
        case (.int32(let number)?, .integer32): Int64(number).databaseValue
        case (.int16(let number)?, .integer16): Int64(number).databaseValue
        case (.double(let number)?, .double): number.databaseValue
        case (.bool(let flag)?, .boolean): (flag ? 1 : 0).databaseValue
        default: try databaseValue(object: values[slot], as: type)
        }
    }
}

/// A value that cannot be stored in its attribute's column.
package struct StoredValueError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
