import Foundation

/// The Foundation methods mapping expressions call on attribute values, by key path
/// (`$source.title.length`) or with `FUNCTION($source.title, 'uppercaseString')`: those of
/// NSString, NSNumber, NSDate, NSData, NSUUID, NSURL and of collections.
enum ValueMethods {
    // MARK: - Keys

    /// The value of a method without arguments on a value that is not an object, as key-value
    /// coding answers it; throws for a key the value's class does not have.
    static func value(forKey key: String, of value: EvaluatedValue) throws -> EvaluatedValue {
        if key == "self" { return value }
        let result: EvaluatedValue?
        switch value {
        case .string(let text): result = string(key, text)
        case .integer, .double, .decimal, .bool: result = number(key, value)
        case .date(let date): result = self.date(key, date)
        case .data(let data): result = key == "length" ? .integer(Int64(data.count)) : key == "description" ? .string(describe(data)) : nil
        case .uuid(let uuid): result = key == "UUIDString" || key == "description" ? .string(uuid.uuidString) : nil
        case .uri(let url): result = self.url(key, url)
        default: result = nil
        }
        guard let result else { throw EvaluationError("\(value.kind) has no key '\(key)'") }
        return result
    }

    private static func string(_ key: String, _ text: String) -> EvaluatedValue? {
        switch key {
        case "length": .integer(Int64(text.utf16.count))
        case "uppercaseString": .string(text.uppercased())
        case "lowercaseString": .string(text.lowercased())
        case "capitalizedString": .string(text.capitalized)
        case "description", "stringValue": .string(text)
        case "intValue", "integerValue", "longLongValue", "shortValue": number("integerValue", .double(Double(leadingNumber(text)) ?? 0))
        case "doubleValue", "floatValue": .double(Double(leadingNumber(text)) ?? 0)
        case "boolValue": .bool("YyTt".contains(text.trimmingCharacters(in: .whitespaces).first ?? "0") || (Double(leadingNumber(text)) ?? 0) != 0)
        case "lastPathComponent": .string((text as NSString).lastPathComponent)
        case "pathExtension": .string((text as NSString).pathExtension)
        case "stringByDeletingPathExtension": .string((text as NSString).deletingPathExtension)
        case "stringByDeletingLastPathComponent": .string((text as NSString).deletingLastPathComponent)
        default: nil
        }
    }

    /// The number at the start of `text`, as NSString's `intValue`/`doubleValue` read it.
    private static func leadingNumber(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var end = trimmed.startIndex
        for (offset, character) in zip(trimmed.indices, trimmed) {
            guard character.isASCII, character.isNumber || character == "." || (offset == trimmed.startIndex && "+-".contains(character))
            else { break }
            end = trimmed.index(after: offset)
        }
        return String(trimmed[..<end])
    }

    private static func number(_ key: String, _ value: EvaluatedValue) -> EvaluatedValue? {
        let number = value.number ?? 0
        switch key {
        case "intValue", "integerValue", "longLongValue", "shortValue", "longValue", "unsignedIntegerValue":
            if case .integer = value { return value }
            return .integer(number.isFinite && abs(number) < 9.2e18 ? Int64(number) : 0)
        case "doubleValue", "floatValue": return .double(number)
        case "boolValue": return .bool(number != 0)
        case "decimalValue": return .decimal(decimal(value))
        case "stringValue", "description":
            switch value {
            case .integer(let integer): return .string(String(integer))
            case .bool(let flag): return .string(flag ? "1" : "0")
            case .decimal(let decimal): return .string("\(decimal)")
            default: return .string(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number))
            }
        default: return nil
        }
    }

    private static func decimal(_ value: EvaluatedValue) -> Decimal {
        switch value {
        case .decimal(let decimal): decimal
        case .integer(let integer): Decimal(integer)
        default: Decimal(value.number ?? 0)
        }
    }

    private static func date(_ key: String, _ date: Date) -> EvaluatedValue? {
        switch key {
        case "timeIntervalSinceReferenceDate": .double(date.timeIntervalSinceReferenceDate)
        case "timeIntervalSince1970": .double(date.timeIntervalSince1970)
        case "timeIntervalSinceNow": .double(date.timeIntervalSinceNow)
        case "description": .string(describe(date))
        default: nil
        }
    }

    private static func url(_ key: String, _ url: URL) -> EvaluatedValue? {
        switch key {
        case "absoluteString", "description", "relativeString": .string(url.absoluteString)
        case "path": .string(url.path)
        case "lastPathComponent": .string(url.lastPathComponent)
        case "pathExtension": .string(url.pathExtension)
        case "host": url.host.map(EvaluatedValue.string) ?? .null
        case "scheme": url.scheme.map(EvaluatedValue.string) ?? .null
        default: nil
        }
    }

    /// A date as NSDate's `description` prints it (`2023-03-07 10:13:20 +0000`).
    private static func describe(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// Data as NSData's `description` prints it (`{length = 3, bytes = 0x010203}`).
    private static func describe(_ data: Data) -> String {
        let hex = data.prefix(24).map { String(format: "%02x", $0) }.joined()
        return "{length = \(data.count), bytes = 0x\(hex)\(data.count > 24 ? "..." : "")}"
    }
}
