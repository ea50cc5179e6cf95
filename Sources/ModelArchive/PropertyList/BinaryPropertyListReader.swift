/// Reads `bplist00` binary property lists, with bounds checks everywhere: a truncated or hostile
/// file gives an error, never a crash or a runaway allocation.
public enum BinaryPropertyListReader {
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public static func decode(_ bytes: [UInt8]) throws(FormatError) -> PropertyListValue {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else {
            throw FormatError(description: "not a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = try integer(bytes, at: trailer + 8, size: 8)
        let top = try integer(bytes, at: trailer + 16, size: 8)
        let table = try integer(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, top < count,
            table >= 8, table + count * offsetSize <= trailer
        else { throw FormatError(description: "corrupt binary property list trailer") }
        var reader = Reader(
            bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize, count: count, table: table)
        return try reader.object(top, depth: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let count: Int
        let table: Int
        /// Objects decoded so far by index: a file may refer to one object many times, and
        /// decoding it again each time would let a small file expand exponentially.
        var decoded: [Int: PropertyListValue] = [:]

        mutating func object(_ index: Int, depth: Int) throws(FormatError) -> PropertyListValue {
            guard index < count, depth < 512 else { throw FormatError(description: "bad object reference") }
            if let known = decoded[index] { return known }
            let value = try decode(index, depth: depth)
            decoded[index] = value
            return value
        }

        private mutating func decode(_ index: Int, depth: Int) throws(FormatError) -> PropertyListValue {
            let offset = try integer(bytes, at: table + index * offsetSize, size: offsetSize)
            guard offset < table else { throw FormatError(description: "object offset out of range") }
            let marker = bytes[offset]
            let low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                if marker == 0x08 { return .bool(false) }
                if marker == 0x09 { return .bool(true) }
                throw FormatError(description: "unsupported null or fill object")
            case 0x1:
                let size = 1 << low
                guard size <= 8 else { throw FormatError(description: "integer too large") }
                let raw = UInt64(bitPattern: Int64(try integer(bytes, at: offset + 1, size: size, allowNegative: true)))
                return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2:
                if low == 2 {
                    return .real(Double(Float(bitPattern: UInt32(try integer(bytes, at: offset + 1, size: 4)))))
                }
                return .real(Double(bitPattern: UInt64(bitPattern: Int64(try integer(bytes, at: offset + 1, size: 8, allowNegative: true)))))
            case 0x3:
                return .date(Double(bitPattern: UInt64(bitPattern: Int64(try integer(bytes, at: offset + 1, size: 8, allowNegative: true)))))
            case 0x4:
                let (length, start) = try lengthAndStart(offset, low)
                return .data(Array(try slice(start, length)))
            case 0x5:
                let (length, start) = try lengthAndStart(offset, low)
                return .string(String(decoding: try slice(start, length), as: UTF8.self))
            case 0x6:
                let (length, start) = try lengthAndStart(offset, low)
                let raw = try slice(start, length * 2)
                let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map {
                    UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1])
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                return .uid(UInt32(truncatingIfNeeded: try integer(bytes, at: offset + 1, size: low + 1)))
            case 0xA, 0xC:
                let (length, start) = try lengthAndStart(offset, low)
                var items = [PropertyListValue]()
                for position in 0..<length {
                    let reference = try integer(bytes, at: start + position * referenceSize, size: referenceSize)
                    items.append(try object(reference, depth: depth + 1))
                }
                return marker >> 4 == 0xA ? .array(items) : .set(items)
            case 0xD:
                let (length, start) = try lengthAndStart(offset, low)
                var entries = [(key: String, value: PropertyListValue)]()
                for position in 0..<length {
                    let keyReference = try integer(bytes, at: start + position * referenceSize, size: referenceSize)
                    let valueReference = try integer(
                        bytes, at: start + (length + position) * referenceSize, size: referenceSize)
                    guard case .string(let key) = try object(keyReference, depth: depth + 1) else {
                        throw FormatError(description: "dictionary key is not a string")
                    }
                    entries.append((key, try object(valueReference, depth: depth + 1)))
                }
                return .dictionary(entries)
            default:
                throw FormatError(description: "unknown object marker \(marker)")
            }
        }

        func lengthAndStart(_ offset: Int, _ low: Int) throws(FormatError) -> (Int, Int) {
            guard low == 0x0F else { return (low, offset + 1) }
            guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else {
                throw FormatError(description: "bad length")
            }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            let length = try integer(bytes, at: offset + 2, size: size)
            guard length <= bytes.count else { throw FormatError(description: "length out of range") }
            return (length, offset + 2 + size)
        }

        func slice(_ start: Int, _ length: Int) throws(FormatError) -> ArraySlice<UInt8> {
            guard start >= 0, length >= 0, start + length <= bytes.count else {
                throw FormatError(description: "object runs past the end of the file")
            }
            return bytes[start..<(start + length)]
        }
    }

    private static func integer(
        _ bytes: [UInt8], at offset: Int, size: Int, allowNegative: Bool = false
    ) throws(FormatError) -> Int {
        guard offset >= 0, size > 0, size <= 8, offset + size <= bytes.count else {
            throw FormatError(description: "integer runs past the end of the file")
        }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        let signed = Int(truncatingIfNeeded: value)
        guard allowNegative || signed >= 0 else { throw FormatError(description: "integer out of range") }
        return signed
    }
}
