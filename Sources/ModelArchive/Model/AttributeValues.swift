import Foundation
import ModelSchema

/// How momc stores an attribute's value class and default value.
enum AttributeValues {
    /// The classes `NSAttributeValueClassName` names.
    static let valueClassNames = [
        "NSNumber", "NSDecimalNumber", "NSString", "NSDate", "NSData", "NSUUID", "NSURL", "NSManagedObjectID",
    ]

    /// The index in ``valueClassNames`` of `NSAttributeValueClassName` per type; Transformable
    /// (which takes its Custom Class, ``customValueClassName(_:)``) and Undefined have none.
    static func valueClassIndex(_ type: AttributeType) -> Int? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: 0
        case .decimal: 1
        case .string: 2
        case .date: 3
        case .binary: 4
        case .uuid: 5
        case .uri: 6
        case .objectID: 7
        case .undefined, .transformable, .composite: nil
        }
    }

    /// The `NSAttributeValueClassName` momc writes for a transformable: its Custom Class
    /// (`customClassName`) as written, whatever the spelling (`NSArray`, `[String]`,
    /// `[String: Any]`); none when the class is unset or empty.
    static func customValueClassName(_ attribute: Attribute) -> String? {
        guard attribute.type == .transformable, let name = attribute.customClassName, !name.isEmpty else { return nil }
        return name
    }

    /// Appends `NSDefaultValue`, the XML default parsed per type, leniently as Core Data parses
    /// it, to the innermost open object of `writer`. Date, decimal, UUID and URL defaults are
    /// objects of their own, numbered before the field as NSKeyedArchiver numbers them;
    /// `decimals` keeps the decimal defaults parsed so far, by text.
    static func appendDefaultValue(
        of attribute: UnsafePointer<Attribute>, to writer: inout KeyedArchiveWriter,
        decimals: inout [String: DecimalNumber]
    ) {
        let type = attribute.pointee.type
        if type == .date {
            guard let seconds = defaultDateSeconds(attribute.pointee) else { return writer.appendNull(.defaultValue) }
            let date = writer.beginObject()
            writer.append(.time, real: seconds)
            writer.endObject(date, chain: .date)
            return writer.append(.defaultValue, object: date.number)
        }
        guard let text = attribute.pointee.defaultValueString else { return writer.appendNull(.defaultValue) }
        switch type {
        case .integer16, .integer32, .integer64:
            writer.append(.defaultValue, object: writer.number(integer: Int64(integerValue(text))))
        case .double:
            appendReal(Double(text) ?? 0, to: &writer)
        case .float:
            appendReal(Double(Float(text) ?? 0), to: &writer)
        case .boolean:
            writer.append(.defaultValue, object: writer.number(bool: boolValue(text)))
        case .decimal:
            let decimal = decimals[text] ?? {
                let parsed = DecimalNumber(text)
                decimals[text] = parsed
                return parsed
            }()
            writer.append(.defaultValue, object: decimal.number(in: &writer))
        case .string:
            writer.append(.defaultValue, string: text)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { return writer.appendNull(.defaultValue) }
            let object = writer.beginObject()
            writer.append(.uuidBytes, object: writer.number(for: .data(withUnsafeBytes(of: uuid.uuid) { Array($0) })))
            writer.endObject(object, chain: .uuid)
            writer.append(.defaultValue, object: object.number)
        case .uri:
            let object = writer.beginObject()
            writer.appendNull(.base)
            writer.append(.relative, string: text)
            writer.endObject(object, chain: .url)
            writer.append(.defaultValue, object: object.number)
        default:
            writer.appendNull(.defaultValue)
        }
    }

    /// Appends `NSDefaultValue`, an NSNumber holding `value`.
    private static func appendReal(_ value: Double, to writer: inout KeyedArchiveWriter) {
        let number = value.isNaN ? writer.number(for: .real(value)) : writer.number(real: value)
        writer.append(.defaultValue, object: number)
    }

    /// A Date attribute's default in seconds since 2001-01-01: its time interval, else its text.
    static func defaultDateSeconds(_ attribute: Attribute) -> Double? {
        attribute.defaultDateTimeInterval.flatMap(Double.init) ?? attribute.defaultValueString.flatMap(dateSeconds)
    }

    /// What `-[NSString integerValue]` makes of the text: leading digits, else 0; `YES` is 0 too.
    static func integerValue(_ text: String) -> Int {
        if let value = Int(text) { return value }
        if let value = Double(text), abs(value) < 9.2e18 { return Int(value) }
        return 0
    }

    /// What momc makes of a Boolean default's text.
    static func boolValue(_ text: String) -> Bool {
        switch text {
        case "YES", "yes", "true", "TRUE", "1": true
        default: false
        }
    }

    /// Seconds since 2001-01-01 for the date text Xcode writes (`2013-04-23 12:00:00 +0000`).
    static func dateSeconds(_ text: String) -> Double? {
        if let seconds = Double(text) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: text)?.timeIntervalSinceReferenceDate
    }
}

extension AttributeValues {
    /// Sets the XML default of `attribute` from an archived `NSDefaultValue`.
    static func restoreDefault(_ value: ArchiveValue?, into attribute: inout Attribute) {
        switch value {
        case .number(.bool(let flag))?:
            attribute.defaultValueString = flag ? "YES" : "NO"
        case .number(.integer(let number))?:
            attribute.defaultValueString = String(number)
        case .number(.real(let number))?:
            attribute.defaultValueString = attribute.type == .float ? String(Float(number)) : String(number)
        case .string(let text)?:
            attribute.defaultValueString = text
        case .object(let object)?:
            switch object.className {
            case "NSDate":
                if let seconds = object["NS.time"].flatMap({ if case .real(let s) = $0 { s } else { nil } }) {
                    attribute.defaultDateTimeInterval = String(seconds)
                }
            case "NSUUID":
                if case .data(let bytes)? = object["NS.uuidbytes"], bytes.count == 16 {
                    let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
                    attribute.defaultValueString = uuid.uuidString
                }
            case "NSURL":
                attribute.defaultValueString = object["NS.relative"]?.string
            case "NSDecimalNumber", "NSDecimalNumberPlaceholder":
                attribute.defaultValueString = decimalText(object)
            default:
                break
            }
        default:
            break
        }
    }

    /// The text of an archived NSDecimalNumber (mantissa × 10^exponent), which parses back to
    /// the same fields.
    static func decimalText(_ object: ArchivedObject) -> String {
        guard case .bytes(let bytes)? = object["NS.mantissa"] else { return "0" }
        var mantissa: UInt64 = 0
        let length = Int(object["NS.length"]?.integer ?? 0)
        for index in stride(from: min(length, 4) - 1, through: 0, by: -1) where index * 2 + 1 < bytes.count {
            mantissa = mantissa << 16 | UInt64(bytes[index * 2]) | UInt64(bytes[index * 2 + 1]) << 8
        }
        var digits = String(mantissa)
        let exponent = Int(object["NS.exponent"]?.integer ?? 0)
        // A zero keeps the exponent its text's fraction digits gave it: `0.0` is exponent -1.
        if mantissa == 0 { return exponent < 0 ? "0." + String(repeating: "0", count: -exponent) : "0" }
        if exponent > 0 {
            digits += String(repeating: "0", count: exponent)
        } else if exponent < 0 {
            let places = -exponent
            if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
        }
        return (object["NS.negative"]?.bool == true ? "-" : "") + digits
    }
}
