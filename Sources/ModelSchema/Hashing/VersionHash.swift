import Foundation

/// A 32-byte version hash, as Core Data stores in `NSStoreModelVersionHashes`.
public struct VersionHash: Sendable, Hashable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Lower-case hexadecimal, 64 characters.
    public var hex: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var base64: String { Data(bytes).base64EncodedString() }

    public var description: String { hex }
}
