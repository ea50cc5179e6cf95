import Foundation
import ModelSchema

/// A JSON value of an import file as the value of an attribute, in the Swift type objects hold
/// for the attribute's type, checked as Core Data's validation would refuse it: a value the
/// type cannot hold is an error, never a truncated, wrapped or rounded value.
///
/// The forms are those `fetch --json` prints (``JSONForms``): integers and floating-point
/// numbers as JSON numbers, read from their text (an Integer 64 is exact to its last digit);
/// non-finite doubles and floats as `"NaN"`, `"Infinity"`, `"-Infinity"`; decimals as strings
/// (or numbers); dates as RFC 3339 text (or the stored seconds since 2001 as a number);
/// binary and transformable data as base64; UUIDs and URIs as strings.
enum ImportValue {
    /// Why a JSON value is not a value of its attribute, with Core Data's code: 1550 (a generic
    /// validation error) for a value of the wrong kind or out of the type's range, 1650 for text
    /// that names no date, 1690 for text that is no URI.
    struct Mismatch: Error {
        var text: String
        var code = 1550
    }

    static func value(_ json: Any, for attribute: Attribute) throws(Mismatch) -> Any? {
        if json is NSNull { return nil }
        let type = attribute.type.xmlName ?? "stored"
        func mismatch(_ form: String) -> Mismatch { Mismatch(text: "\(describe(json)) is not \(form) (\(type) attribute)") }
        func outOfRange(_ range: String) -> Mismatch { Mismatch(text: "\(describe(json)) is out of the range of \(type)\(range)") }
        switch attribute.type {
        case .string:
            guard let text = json as? String else { throw mismatch("a string") }
            return text
        case .integer16: return try integer(json, as: Int16.self, mismatch, outOfRange)
        case .integer32: return try integer(json, as: Int32.self, mismatch, outOfRange)
        case .integer64: return try integer(json, as: Int64.self, mismatch, outOfRange)
        case .double:
            if let name = json as? String, let number = JSONForms.nonFinite(named: name) { return number }
            guard let number = json as? ImportNumber else { throw mismatch("a number") }
            guard let value = Double(number.text), value.isFinite else { throw outOfRange("") }
            return value
        case .float:
            if let name = json as? String, let number = JSONForms.nonFinite(named: name) { return Float(number) }
            guard let number = json as? ImportNumber else { throw mismatch("a number") }
            guard let value = Float(number.text), value.isFinite else { throw outOfRange(" (±\(Float.greatestFiniteMagnitude))") }
            return value
        case .decimal:
            if let text = json as? String, text == "NaN" { return Decimal.nan }
            let text = (json as? ImportNumber)?.text ?? (json as? String)
            guard let text, isNumberText(text) else { throw mismatch("a decimal number") }
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else { throw outOfRange("") }
            return decimal
        case .boolean:
            guard let flag = json as? Bool else { throw mismatch("true or false") }
            return flag
        case .date:
            if let number = json as? ImportNumber {
                guard let seconds = Double(number.text), seconds.isFinite else { throw outOfRange("") }
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            guard let text = json as? String else { throw mismatch("a date") }
            if let seconds = JSONForms.date(text) ?? JSONForms.nonFinite(named: text) { return Date(timeIntervalSinceReferenceDate: seconds) }
            throw Mismatch(text: "\(describe(json)) is not a date of the calendar in RFC 3339 form (2024-02-29T12:00:00Z)", code: 1650)
        case .binary, .transformable:
            guard let text = json as? String, let data = Data(base64Encoded: text) else { throw mismatch("base64 text") }
            return data
        case .uuid:
            guard let text = json as? String, let id = UUID(uuidString: text) else { throw mismatch("a UUID") }
            return id
        case .uri:
            guard let text = json as? String else { throw mismatch("a URI string") }
            guard let url = URL(string: text) else { throw Mismatch(text: "\(describe(json)) is not a URI", code: 1690) }
            return url
        default:
            throw mismatch("a value an import can set")
        }
    }

    /// An integer of `T` from a JSON number with no fraction, refused when out of `T`'s range.
    private static func integer<T: FixedWidthInteger>(
        _ json: Any, as type: T.Type, _ mismatch: (String) -> Mismatch, _ outOfRange: (String) -> Mismatch
    ) throws(Mismatch) -> T {
        guard let number = json as? ImportNumber else { throw mismatch("an integer") }
        switch number.integer(as: T.self) {
        case .value(let value): return value
        case .fraction: throw mismatch("an integer")
        case .outOfRange: throw outOfRange(" (\(T.min) to \(T.max))")
        }
    }

    /// Whether `text` is a number by JSON's grammar, nothing around it (so `Decimal(string:)`
    /// reads all of it).
    private static func isNumberText(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last, !ImportJSON.isBlank(first), !ImportJSON.isBlank(last) else { return false }
            return (try? ImportJSON.parse(UnsafeRawBufferPointer(bytes))) is ImportNumber
        }
    }

    /// A JSON value for a message: a string quoted and cut at 40 characters, a list or an object by its kind.
    static func describe(_ json: Any) -> String {
        switch json {
        case let text as String:
            let quoted = text.count > 40 ? String(text.prefix(39)) + "…" : text
            return "\"\(quoted.replacingOccurrences(of: "\u{0}", with: "\\u0000"))\""
        case let number as ImportNumber: return number.text.count > 40 ? String(number.text.prefix(39)) + "…" : number.text
        case let flag as Bool: return flag ? "true" : "false"
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        default: return "null"
        }
    }
}
