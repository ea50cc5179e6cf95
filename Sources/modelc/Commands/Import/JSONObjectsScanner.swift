import Foundation

/// Finds the elements of the `"objects"` array of a JSON object without parsing them: each
/// element's byte range, found by skipping strings (with their escapes) and nested brackets.
/// The elements are parsed one by one later (``ImportFile/object(_:)``); the other members of
/// the top-level object are checked with ``ImportJSON`` here. It reads the file's bytes where
/// they are, without a copy.
struct JSONObjectsScanner {
    private let bytes: UnsafeRawBufferPointer
    private var at = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The ranges of the elements of the top-level object's `"objects"` array; nil when the
    /// text is not a JSON object with one such array.
    mutating func objectRanges() -> [Range<Int>]? {
        var found: [Range<Int>]?
        guard take(UInt8(ascii: "{")) else { return nil }
        if take(UInt8(ascii: "}")) { return nil }
        repeat {
            guard let keyRange = skipString(), take(UInt8(ascii: ":")) else { return nil }
            if bytes[keyRange].elementsEqual("\"objects\"".utf8) {
                guard found == nil, let elements = arrayElements() else { return nil }
                found = elements
            } else {
                skipSpace()
                let start = at
                guard skipValue(), (try? ImportJSON.parse(UnsafeRawBufferPointer(rebasing: bytes[start..<at]))) != nil else { return nil }
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        return at == bytes.count ? found : nil
    }

    // MARK: - Skipping

    private mutating func arrayElements() -> [Range<Int>]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var ranges = [Range<Int>]()
        if take(UInt8(ascii: "]")) { return ranges }
        repeat {
            skipSpace()
            let start = at
            guard skipValue() else { return nil }
            ranges.append(start..<at)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? ranges : nil
    }

    /// Skips one value: a string, an object or array (to its closing bracket), or a bare word
    /// or number (to the next delimiter; its parse finds whether it is valid).
    private mutating func skipValue() -> Bool {
        guard at < bytes.count else { return false }
        switch bytes[at] {
        case UInt8(ascii: "\""):
            return skipString() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while at < bytes.count {
                switch bytes[at] {
                case UInt8(ascii: "\""):
                    guard skipString() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        at += 1
                        return true
                    }
                case let byte where byte < 0x20 && !ImportJSON.isBlank(byte):
                    return false
                default:
                    break
                }
                at += 1
            }
            return false
        default:
            let start = at
            while at < bytes.count, !Self.delimiters.contains(bytes[at]) { at += 1 }
            return at > start
        }
    }

    /// Skips a string at `at` (after blanks), returning its range with the quotes.
    private mutating func skipString() -> Range<Int>? {
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let start = at
        at += 1
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\\"): at += 2
            case UInt8(ascii: "\""):
                at += 1
                return start..<at
            // JSON text has no raw control character in a string; a file of NULs stops here.
            case 0..<0x20: return nil
            default: at += 1
            }
        }
        return nil
    }

    /// Takes `byte` after blanks; false (and nothing taken but the blanks) when another byte is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    private mutating func skipSpace() {
        while at < bytes.count, Self.blanks.contains(bytes[at]) { at += 1 }
    }

    private static let blanks: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    private static let delimiters: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")]
}
