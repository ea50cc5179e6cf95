import Foundation

/// Reads a property list in either form Apple's tools wrote: `bplist00` binary (through
/// ``BinaryPropertyListReader``) or XML (through Foundation), so that a `VersionInfo.plist` or a
/// `.mom` that an older Xcode or a hand conversion left as XML reads like the binary one.
public enum PropertyListReader {
    /// The value in `bytes`; an XML keyed archive's `CF$UID` references become ``PropertyListValue/uid(_:)``.
    public static func decode(_ bytes: [UInt8]) throws -> PropertyListValue {
        if bytes.starts(with: Array("bplist".utf8)) { return try BinaryPropertyListReader.decode(bytes) }
        // Foundation turns `<dict><key>CF$UID</key>…` into a private class whose number it does
        // not expose on every platform; renaming the key keeps it a dictionary that we convert.
        let renamed = Data(bytes).replacing(Data(Self.uidKey.utf8), with: Data(Self.renamedUIDKey.utf8))
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: renamed, format: nil)
        } catch {
            throw BinaryPropertyListReader.FormatError(description: "not a property list (binary or XML)")
        }
        return try value(root, depth: 0)
    }

    private static let uidKey = "<key>CF$UID</key>"
    private static let renamedKeyName = "CF$UID.modelc"
    private static let renamedUIDKey = "<key>\(renamedKeyName)</key>"

    // MARK: - Conversion

    /// One Foundation property-list object as a ``PropertyListValue``, nesting bounded.
    private static func value(_ object: Any, depth: Int) throws -> PropertyListValue {
        guard depth < 512 else { throw BinaryPropertyListReader.FormatError(description: "property list nested too deeply") }
        switch object {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let data as Data: return .data([UInt8](data))
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case let number as NSNumber:
            // `objCType` tells an integer (`q`, `i`…) from a real (`d`, `f`).
            let type = String(cString: number.objCType)
            return type == "d" || type == "f" ? .real(number.doubleValue) : .integer(number.int64Value)
        case let items as [Any]: return .array(try items.map { try value($0, depth: depth + 1) })
        case let entries as [String: Any]:
            if entries.count == 1, let uid = entries[Self.renamedKeyName] as? NSNumber {
                return .uid(uid.uint32Value)
            }
            return .dictionary(try entries.keys.sorted().map { ($0, try value(entries[$0]!, depth: depth + 1)) })
        default:
            throw BinaryPropertyListReader.FormatError(description: "unsupported property list value \(type(of: object))")
        }
    }
}
