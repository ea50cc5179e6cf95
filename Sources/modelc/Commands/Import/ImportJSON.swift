import Foundation

/// A JSON number of an import file as its text, so that it becomes its attribute's type exactly:
/// an integer never passes through a double (9007199254740993 stays itself) and a value the type
/// cannot hold is found, not rounded or wrapped.
struct ImportNumber: CustomStringConvertible {
    /// The literal, valid by JSON's grammar.
    let text: String

    var description: String { text }

    /// What the number is as an integer of type `T`.
    enum IntegerReading<T> {
        case value(T)
        case fraction
        case outOfRange
    }

    /// The number as an integer of type `T`: its exact value, also for a literal with a fraction
    /// or an exponent that is whole (`1.0`, `7e2`).
    func integer<T: FixedWidthInteger>(as type: T.Type) -> IntegerReading<T> {
        let bytes = Array(text.utf8)
        var at = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { at += 1 }
        var digits = [UInt8]()
        while at < bytes.count, Self.isDigit(bytes[at]) {
            digits.append(bytes[at])
            at += 1
        }
        var exponent = 0
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            while at < bytes.count, Self.isDigit(bytes[at]) {
                digits.append(bytes[at])
                exponent -= 1
                at += 1
            }
        }
        if at < bytes.count {
            // The exponent, capped: beyond the cap the number is zero or far out of any range.
            at += 1
            let negativeExponent = bytes[at] == UInt8(ascii: "-")
            if !Self.isDigit(bytes[at]) { at += 1 }
            var written = 0
            while at < bytes.count {
                written = min(written * 10 + Int(bytes[at] - UInt8(ascii: "0")), 1_000_000)
                at += 1
            }
            exponent += negativeExponent ? -written : written
        }
        guard let firstNonZero = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else { return .value(0) }
        digits.removeFirst(firstNonZero)
        if exponent < 0 {
            let dropped = digits.suffix(min(-exponent, digits.count))
            guard -exponent <= digits.count, dropped.allSatisfy({ $0 == UInt8(ascii: "0") }) else { return .fraction }
            digits.removeLast(-exponent)
        } else if exponent > 0 {
            guard digits.count + exponent <= 40 else { return .outOfRange }
            digits += [UInt8](repeating: UInt8(ascii: "0"), count: exponent)
        }
        let whole = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
        return T(whole).map(IntegerReading.value) ?? .outOfRange
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// A strict JSON parser for the objects of an import file (RFC 8259): values come back as
/// `NSNull`, `Bool`, `String`, ``ImportNumber``, `[Any]` and `[String: Any]`. Unlike
/// `JSONSerialization` it keeps numbers as their text, refuses a key given twice in one object,
/// a lone UTF-16 surrogate and text that is not UTF-8, and stops at a nesting depth no import
/// object needs, so that hostile nesting cannot exhaust the stack.
struct ImportJSON {
    /// Why the text is not JSON, with the byte offset in the parsed text.
    struct Invalid: Error {
        var text: String
    }

    /// The deepest nesting accepted: an import object needs three levels (object, relationships, list).
    static let maximumDepth = 32

    private let bytes: UnsafeRawBufferPointer
    private var at = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Parses `bytes` as one JSON value, with nothing but blanks around it.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Invalid) -> Any {
        var parser = ImportJSON(bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == bytes.count else { throw parser.invalid("text after the value") }
        return value
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(Invalid) -> Any {
        skipSpace()
        guard at < bytes.count else { throw invalid("the text ends where a value should be") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "t"): return try word("true", true)
        case UInt8(ascii: "f"): return try word("false", false)
        case UInt8(ascii: "n"): return try word("null", NSNull())
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws(Invalid) -> [String: Any] {
        guard depth <= Self.maximumDepth else { throw invalid("nested more than \(Self.maximumDepth) deep") }
        at += 1
        var members = [String: Any]()
        skipSpace()
        if take(UInt8(ascii: "}")) { return members }
        repeat {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw invalid("a key should be a string") }
            let keyStart = at
            let key = try string()
            skipSpace()
            guard take(UInt8(ascii: ":")) else { throw invalid("':' should follow a key") }
            guard members[key] == nil else {
                at = keyStart
                throw invalid("the key \"\(key)\" is given twice in one object")
            }
            members[key] = try value(depth: depth)
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { throw invalid("',' or '}' should follow a member") }
        return members
    }

    private mutating func array(depth: Int) throws(Invalid) -> [Any] {
        guard depth <= Self.maximumDepth else { throw invalid("nested more than \(Self.maximumDepth) deep") }
        at += 1
        var elements = [Any]()
        skipSpace()
        if take(UInt8(ascii: "]")) { return elements }
        repeat {
            elements.append(try value(depth: depth))
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { throw invalid("',' or ']' should follow an element") }
        return elements
    }

    private mutating func word(_ text: String, _ value: Any) throws(Invalid) -> Any {
        let count = text.utf8.count
        guard at + count <= bytes.count, bytes[at..<at + count].elementsEqual(text.utf8) else { throw invalid("not a JSON value") }
        at += count
        return value
    }

    /// A number by JSON's grammar: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func number() throws(Invalid) -> ImportNumber {
        let start = at
        _ = take(UInt8(ascii: "-"))
        let integerStart = at
        let count = digits()
        guard count > 0 else { throw invalid("not a JSON value") }
        guard count == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            at = integerStart
            throw invalid("a number does not start with 0 unless it is 0")
        }
        if take(UInt8(ascii: ".")) {
            guard digits() > 0 else { throw invalid("digits should follow '.'") }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            guard digits() > 0 else { throw invalid("digits should follow an exponent's 'e'") }
        }
        return ImportNumber(text: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self))
    }

    /// Takes a run of ASCII digits and says how many.
    private mutating func digits() -> Int {
        let start = at
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
        return at - start
    }

    /// A string at `at`: escapes decoded, surrogate pairs joined, the UTF-8 checked.
    private mutating func string() throws(Invalid) -> String {
        at += 1
        // Most strings have no escape: made from their bytes where they are.
        var end = at
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self) else {
                throw invalid("a string that is not UTF-8")
            }
            at = end + 1
            return text
        }
        var utf8 = [UInt8]()
        while at < bytes.count {
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "\""):
                at += 1
                guard let text = String(validating: utf8, as: UTF8.self) else { throw invalid("a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                at += 1
                guard at < bytes.count else { break }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8 += try unicodeEscape()
                default:
                    at -= 2
                    throw invalid("an unknown escape")
                }
            case 0..<0x20:
                throw invalid("a control character in a string (it must be escaped)")
            default:
                utf8.append(byte)
                at += 1
            }
        }
        throw invalid("a string is not closed")
    }

    /// The UTF-8 of a `\uXXXX` escape (after `\u`), with the low half of a surrogate pair.
    private mutating func unicodeEscape() throws(Invalid) -> [UInt8] {
        let escapeStart = at - 2
        var unit = try hexUnit()
        if (0xD800..<0xDC00).contains(unit) {
            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                at = escapeStart
                throw invalid("a lone UTF-16 surrogate")
            }
            at += 2
            let low = try hexUnit()
            guard (0xDC00..<0xE000).contains(low) else {
                at = escapeStart
                throw invalid("a lone UTF-16 surrogate")
            }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(unit) {
            at = escapeStart
            throw invalid("a lone UTF-16 surrogate")
        }
        guard let scalar = Unicode.Scalar(unit) else { throw invalid("not a Unicode scalar") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hexUnit() throws(Invalid) -> UInt32 {
        guard at + 4 <= bytes.count else { throw invalid("\\u needs four hex digits") }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigit(bytes[at]) else { throw invalid("\\u needs four hex digits") }
            unit = unit << 4 | digit
            at += 1
        }
        return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: - Bytes

    private mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    private mutating func skipSpace() {
        while at < bytes.count, Self.isBlank(bytes[at]) { at += 1 }
    }

    /// JSON's four blanks: space, tab, line feed, carriage return.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func invalid(_ reason: String) -> Invalid {
        Invalid(text: "\(reason) (byte \(at) of it)")
    }
}
