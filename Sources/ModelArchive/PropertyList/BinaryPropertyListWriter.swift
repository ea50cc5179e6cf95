/// Writes `bplist00` binary property lists, the format of `.mom`, `.cdm`, `VersionInfo.plist`
/// and Core Data's store metadata. Foundation on Linux cannot write the `UID` type keyed
/// archives need, so this encoder is modelc's own; equal scalars are written once, as
/// CoreFoundation does.
public enum BinaryPropertyListWriter {
    public static func encode(_ root: PropertyListValue) -> [UInt8] {
        var flattener = Flattener()
        let top = flattener.add(root)
        let objects = flattener.objects
        let referenceSize = byteCount(for: UInt64(objects.count))

        var output: [UInt8] = Array("bplist00".utf8)
        var offsets = [Int]()
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            write(object, referenceSize: referenceSize, into: &output)
        }
        let tableOffset = output.count
        let offsetSize = byteCount(for: UInt64(tableOffset))
        for offset in offsets {
            appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
        }
        output += [0, 0, 0, 0, 0, 0]
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        appendBigEndian(UInt64(objects.count), size: 8, to: &output)
        appendBigEndian(UInt64(top), size: 8, to: &output)
        appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return output
    }

    // MARK: - Flattening

    /// One object of the file: a scalar, or a container whose members are object indexes.
    private enum FlatObject {
        case scalar(PropertyListValue)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private struct Flattener {
        var objects = [FlatObject]()
        var scalars = [PropertyListValue: Int]()

        mutating func add(_ value: PropertyListValue) -> Int {
            switch value {
            case .array(let items), .set(let items):
                let index = objects.count
                objects.append(.array([]))
                let members = items.map { add($0) }
                if case .set = value { objects[index] = .set(members) } else { objects[index] = .array(members) }
                return index
            case .dictionary(let entries):
                let index = objects.count
                objects.append(.array([]))
                let keys = entries.map { add(.string($0.key)) }
                let values = entries.map { add($0.value) }
                objects[index] = .dictionary(keys: keys, values: values)
                return index
            default:
                if let known = scalars[value] { return known }
                let index = objects.count
                objects.append(.scalar(value))
                scalars[value] = index
                return index
            }
        }
    }

    // MARK: - Encoding

    private static func write(_ object: FlatObject, referenceSize: Int, into output: inout [UInt8]) {
        switch object {
        case .scalar(let value):
            writeScalar(value, into: &output)
        case .array(let members), .set(let members):
            if case .set = object { writeMarker(0xC, count: members.count, into: &output) } else {
                writeMarker(0xA, count: members.count, into: &output)
            }
            for member in members { appendBigEndian(UInt64(member), size: referenceSize, to: &output) }
        case .dictionary(let keys, let values):
            writeMarker(0xD, count: keys.count, into: &output)
            for key in keys { appendBigEndian(UInt64(key), size: referenceSize, to: &output) }
            for value in values { appendBigEndian(UInt64(value), size: referenceSize, to: &output) }
        }
    }

    private static func writeScalar(_ value: PropertyListValue, into output: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .integer(let number):
            writeInteger(number, into: &output)
        case .real(let number):
            output.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &output)
        case .date(let seconds):
            output.append(0x33)
            appendBigEndian(seconds.bitPattern, size: 8, to: &output)
        case .data(let bytes):
            writeMarker(0x4, count: bytes.count, into: &output)
            output += bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                writeMarker(0x5, count: text.utf8.count, into: &output)
                output += text.utf8
            } else {
                let units = Array(text.utf16)
                writeMarker(0x6, count: units.count, into: &output)
                for unit in units { appendBigEndian(UInt64(unit), size: 2, to: &output) }
            }
        case .uid(let number):
            let size = byteCount(for: UInt64(number))
            output.append(0x80 | UInt8(size - 1))
            appendBigEndian(UInt64(number), size: size, to: &output)
        case .array, .set, .dictionary:
            preconditionFailure("containers are flattened before writing")
        }
    }

    private static func writeInteger(_ number: Int64, into output: inout [UInt8]) {
        if number < 0 {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &output)
            return
        }
        let size = byteCount(for: UInt64(number))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
        output.append(0x10 | exponent)
        appendBigEndian(UInt64(number), size: 1 << Int(exponent), to: &output)
    }

    private static func writeMarker(_ type: UInt8, count: Int, into output: inout [UInt8]) {
        if count < 15 {
            output.append(type << 4 | UInt8(count))
        } else {
            output.append(type << 4 | 0x0F)
            writeInteger(Int64(count), into: &output)
        }
    }

    static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for index in stride(from: size - 1, through: 0, by: -1) {
            output.append(UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8)))
        }
    }
}
