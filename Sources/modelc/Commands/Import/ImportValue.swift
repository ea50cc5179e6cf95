import Foundation
import ModelSchema

/// A JSON value as the value of an attribute, in the forms `fetch --json` prints.
enum ImportValue {
    struct Mismatch: Error {
        var text: String
    }

    static func value(_ json: Any, for attribute: Attribute) throws -> Any? {
        if json is NSNull { return nil }
        let type = attribute.type.xmlName ?? "stored"
        func mismatch() -> Mismatch { Mismatch(text: "\(json) is not a value of a \(type) attribute") }
        switch attribute.type {
        case .string:
            guard let text = json as? String else { throw mismatch() }
            return text
        case .integer16, .integer32, .integer64:
            guard let number = json as? NSNumber, !isBoolean(number), let exact = Int64(exactly: number.doubleValue) else { throw mismatch() }
            return exact
        case .double, .float:
            guard let number = json as? NSNumber, !isBoolean(number) else { throw mismatch() }
            return number.doubleValue
        case .decimal:
            guard let text = json as? String, let decimal = Decimal(string: text) else { throw mismatch() }
            return decimal
        case .boolean:
            guard let number = json as? NSNumber, isBoolean(number) else { throw mismatch() }
            return number.boolValue
        case .date:
            guard let text = json as? String, let date = dateFormatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { throw mismatch() }
            return date
        case .binary, .transformable:
            guard let text = json as? String, let data = Data(base64Encoded: text) else { throw mismatch() }
            return data
        case .uuid:
            guard let text = json as? String, let id = UUID(uuidString: text) else { throw mismatch() }
            return id
        case .uri:
            guard let text = json as? String, let url = URL(string: text) else { throw mismatch() }
            return url
        default:
            throw mismatch()
        }
    }

    /// Whether JSON's `true`/`false` made the number (Foundation keeps it as a char).
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    nonisolated(unsafe) static let dateFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
