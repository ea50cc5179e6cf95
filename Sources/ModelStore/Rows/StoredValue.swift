import Foundation
import GRDB
import ModelExpression
import ModelSchema

/// How an attribute's value sits in its column, both ways: dates as seconds since
/// 2001-01-01, decimals as reals, UUIDs as 16 raw bytes, URIs as text, booleans as 0/1, binary
/// and transformable values as bytes.
package enum StoredValue {
    // MARK: - Reading

    /// The typed value of a column holding an attribute of `type`.
    package static func decode(_ value: DatabaseValue, as type: AttributeType) -> EvaluatedValue {
        switch value.storage {
        case .null:
            return .null
        case .int64(let number):
            return decode(number: Double(number), integer: number, as: type)
        case .double(let number):
            return decode(number: number, integer: Int64(exactly: number.rounded(.towardZero)), as: type)
        case .string(let text):
            switch type {
            case .uri: return URL(string: text).map(EvaluatedValue.uri) ?? .string(text)
            case .uuid: return UUID(uuidString: text).map(EvaluatedValue.uuid) ?? .string(text)
            case .decimal: return Decimal(string: text).map(EvaluatedValue.decimal) ?? .string(text)
            default: return .string(text)
            }
        case .blob(let data):
            if type == .uuid, data.count == 16 {
                return .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
            }
            return .data(data)
        }
    }

    private static func decode(number: Double, integer: Int64?, as type: AttributeType) -> EvaluatedValue {
        switch type {
        case .boolean: return .bool(number != 0)
        case .integer16, .integer32, .integer64: return integer.map(EvaluatedValue.integer) ?? .double(number)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: number))
        // Through the double's shortest text, so that 0.07 reads as 0.07 and writes back as the
        // same double (`Decimal(0.07)` is 0.07000000000000001024, which writes back differently).
        case .decimal: return .decimal(Decimal(string: String(number)) ?? Decimal(number))
        case .double, .float: return .double(number)
        default: return integer.map(EvaluatedValue.integer) ?? .double(number)
        }
    }

    // MARK: - Writing

    /// The column value for `value` stored in an attribute of `type`, converted as key-value
    /// coding on a managed object would accept it; throws for a value the type cannot hold.
    package static func encode(_ value: EvaluatedValue, as type: AttributeType) throws -> DatabaseValue {
        if value.isNull { return .null }
        switch type {
        case .boolean:
            if let number = value.number { return (number != 0 ? 1 : 0).databaseValue }
        case .integer16, .integer32, .integer64:
            // Integers as they are: through a double, those above 2^53 would lose their last digits.
            if case .integer(let integer) = value { return integer.databaseValue }
            if let number = value.number, number.isFinite, let integer = Int64(exactly: number.rounded(.towardZero)) {
                return integer.databaseValue
            }
            if case .string(let text) = value, let integer = Int64(text) { return integer.databaseValue }
        case .double, .float, .decimal:
            // SQLite stores a NaN real as NULL: a NaN decimal is the text a DECIMAL column keeps
            // as it is, and reads back as NaN.
            if type == .decimal, case .decimal(let decimal) = value, decimal.isNaN { return "NaN".databaseValue }
            // A decimal becomes the double nearest its exact value, not a product of rounded powers of ten.
            if case .decimal(let decimal) = value, let number = Double("\(decimal)") { return number.databaseValue }
            if let number = value.number { return number.databaseValue }
            if case .string(let text) = value, let number = Double(text) { return number.databaseValue }
        case .date:
            if case .date(let date) = value { return date.timeIntervalSinceReferenceDate.databaseValue }
            if let number = value.number { return number.databaseValue }
        case .string:
            switch value {
            case .string(let text): return text.databaseValue
            case .integer(let number): return String(number).databaseValue
            case .double(let number): return String(number).databaseValue
            case .decimal(let number): return "\(number)".databaseValue
            case .bool(let flag): return (flag ? "1" : "0").databaseValue
            case .uuid(let id): return id.uuidString.databaseValue
            case .uri(let url): return url.absoluteString.databaseValue
            default: break
            }
        case .uri:
            if case .uri(let url) = value { return url.absoluteString.databaseValue }
            if case .string(let text) = value { return text.databaseValue }
        case .uuid:
            if case .uuid(let id) = value { return withUnsafeBytes(of: id.uuid) { Data($0) }.databaseValue }
            if case .string(let text) = value, let id = UUID(uuidString: text) {
                return withUnsafeBytes(of: id.uuid) { Data($0) }.databaseValue
            }
            if case .data(let data) = value, data.count == 16 { return data.databaseValue }
        case .binary, .transformable:
            if case .data(let data) = value { return data.databaseValue }
        default:
            break
        }
        throw EvaluationError("\(value) cannot be stored in a \(type.xmlName ?? "stored") attribute")
    }
}
