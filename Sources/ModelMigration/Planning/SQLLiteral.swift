import Foundation
import ModelSchema

/// Attribute values written into SQL as Core Data stores them (FORMATS §6.3): integers and
/// Booleans as integers, reals, strings quoted, dates as seconds since 2001-01-01.
enum SQLLiteral {
    /// The attribute's default value as a SQL literal; `nil` when it has none that SQL can hold.
    static func defaultValue(of attribute: Attribute) -> String? {
        switch attribute.type {
        case .date:
            return attribute.defaultDateTimeInterval.flatMap(Double.init).map { number($0) }
        case .integer16, .integer32, .integer64, .boolean:
            guard let text = attribute.defaultValueString?.trimmingCharacters(in: .whitespaces) else { return nil }
            switch text.uppercased() {
            case "YES", "TRUE": return "1"
            case "NO", "FALSE": return "0"
            default: return Int(text).map(String.init) ?? Double(text).map { String(Int($0)) }
            }
        case .double, .float, .decimal:
            return attribute.defaultValueString.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { number($0) }
        case .string, .uri:
            return attribute.defaultValueString.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
        default:
            return nil
        }
    }

    /// Whether `value` is a literal this type writes (a number or a quoted string).
    static func isLiteral(_ value: String) -> Bool {
        value.hasPrefix("'") || Double(value) != nil
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
