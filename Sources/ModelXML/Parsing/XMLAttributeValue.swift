#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Attribute values arrive with entity and character references still escaped when entity
/// substitution is off; this resolves the five predefined entities and numeric references.
enum XMLAttributeValue {
    static func decode(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = buffer.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), buffer.count) != nil else {
            return String(decoding: buffer, as: UTF8.self)
        }
        var out = [UInt8]()
        out.reserveCapacity(buffer.count)
        var index = 0
        while index < buffer.count {
            let byte = buffer[index]
            guard byte == UInt8(ascii: "&"), let semicolon = buffer[index...].firstIndex(of: UInt8(ascii: ";")) else {
                out.append(byte)
                index += 1
                continue
            }
            let name = String(decoding: buffer[(index + 1)..<semicolon], as: UTF8.self)
            if let replacement = XMLEntities.resolve(name) {
                out.append(contentsOf: replacement.utf8)
            } else {
                out.append(contentsOf: buffer[index...semicolon])
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
