import Foundation
import ModelSchema

/// How momc stores an attribute's value class and default value.
enum AttributeValues {
    /// `NSAttributeValueClassName` per type; Transformable and Undefined have none.
    static func valueClassName(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binary: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        case .objectID: "NSManagedObjectID"
        case .undefined, .transformable, .composite: nil
        }
    }

    /// `NSDefaultValue`: the XML default parsed per type, leniently as Core Data parses it.
    static func defaultValue(_ attribute: Attribute) -> ArchiveValue {
        if attribute.type == .date {
            let seconds = attribute.defaultDateTimeInterval.flatMap(Double.init)
                ?? attribute.defaultValueString.flatMap(dateSeconds)
            return seconds.map { .object(ArchivedObject(ArchiveClass.date, fields: [("NS.time", .real($0))])) } ?? .null
        }
        guard let text = attribute.defaultValueString else { return .null }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            return .number(.integer(Int64(integerValue(text))))
        case .double:
            return .number(.real(Double(text) ?? 0))
        case .float:
            return .number(.real(Double(Float(text) ?? 0)))
        case .boolean:
            return .number(.bool(["YES", "yes", "true", "TRUE", "1"].contains(text)))
        case .decimal:
            return .object(decimalNumber(text))
        case .string:
            return .string(text)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { return .null }
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            return .object(ArchivedObject(ArchiveClass.uuid, fields: [("NS.uuidbytes", .data(bytes))]))
        case .uri:
            return .object(ArchivedObject(ArchiveClass.url, fields: [("NS.base", .null), ("NS.relative", .string(text))]))
        default:
            return .null
        }
    }

    /// What `-[NSString integerValue]` makes of the text: leading digits, else 0; `YES` is 0 too.
    static func integerValue(_ text: String) -> Int {
        if let value = Int(text) { return value }
        if let value = Double(text), abs(value) < 9.2e18 { return Int(value) }
        return 0
    }

    /// Seconds since 2001-01-01 for the date text Xcode writes (`2013-04-23 12:00:00 +0000`).
    static func dateSeconds(_ text: String) -> Double? {
        if let seconds = Double(text) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: text)?.timeIntervalSinceReferenceDate
    }

    /// An NSDecimalNumber as NSCoder stores it: exponent, length in 16-bit words, sign,
    /// compactness and the little-endian mantissa (up to 19 significant digits here).
    static func decimalNumber(_ text: String) -> ArchivedObject {
        // Trimming through Foundation is slow; most defaults (`0`) have nothing to trim.
        let isTrimmed = text.first?.isWhitespace == false && text.last?.isWhitespace == false
        var digits = isTrimmed ? text : text.trimmingCharacters(in: .whitespaces)
        let isNegative = digits.hasPrefix("-")
        if isNegative || digits.hasPrefix("+") { digits.removeFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var all = String(parts.first ?? "") + (parts.count > 1 ? String(parts[1]) : "")
        var exponent = -(parts.count > 1 ? parts[1].count : 0)
        all = String(all.drop { $0 == "0" })
        while all.hasSuffix("0") {
            all.removeLast()
            exponent += 1
        }
        var mantissa = UInt64(all.prefix(19)) ?? 0
        if all.isEmpty { exponent = 0 }
        var words = [UInt16]()
        while mantissa > 0 {
            words.append(UInt16(mantissa & 0xFFFF))
            mantissa >>= 16
        }
        var bytes = [UInt8]()
        for index in 0..<8 {
            let word = index < words.count ? words[index] : 0
            bytes += [UInt8(word & 0xFF), UInt8(word >> 8)]
        }
        return ArchivedObject(
            ArchiveClass.decimalNumber,
            fields: [
                ("NS.exponent", .integer(Int64(exponent))),
                ("NS.length", .integer(Int64(words.count))),
                ("NS.negative", .bool(isNegative && !words.isEmpty)),
                ("NS.compact", .bool(true)),
                ("NS.mantissa.bo", .integer(1)),
                ("NS.mantissa", .data(bytes)),
            ])
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
            case "NSDecimalNumber":
                attribute.defaultValueString = decimalText(object)
            default:
                break
            }
        default:
            break
        }
    }

    /// The text of an archived NSDecimalNumber (mantissa × 10^exponent).
    static func decimalText(_ object: ArchivedObject) -> String {
        guard case .data(let bytes)? = object["NS.mantissa"] else { return "0" }
        var mantissa: UInt64 = 0
        let length = Int(object["NS.length"]?.integer ?? 0)
        for index in stride(from: min(length, 4) - 1, through: 0, by: -1) where index * 2 + 1 < bytes.count {
            mantissa = mantissa << 16 | UInt64(bytes[index * 2]) | UInt64(bytes[index * 2 + 1]) << 8
        }
        var digits = String(mantissa)
        let exponent = Int(object["NS.exponent"]?.integer ?? 0)
        if mantissa == 0 { return "0" }
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
