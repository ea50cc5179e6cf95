import CZlib

/// The compressed model Core Data keeps in a store's `Z_MODELCACHE.Z_CONTENT`: a `.mom` archive
/// as a raw DEFLATE stream (no zlib header).
public enum ModelCache {
    public struct InflateError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The archive inside a model cache blob. Output is capped (256 MB) so that a hostile blob
    /// cannot exhaust memory.
    public static func inflate(_ compressed: [UInt8], limit: Int = 256 << 20) throws(InflateError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InflateError(description: "cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = compressed
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: target[0..<(target.count - Int(stream.avail_out))])
                }
            } while status == Z_OK && output.count <= limit && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        guard status == Z_STREAM_END, output.count <= limit else {
            throw InflateError(description: output.count > limit ? "model cache larger than the limit" : "corrupt model cache (zlib status \(status))")
        }
        return output
    }

    /// A raw DEFLATE stream of `archive`, as Core Data writes into `Z_MODELCACHE`.
    public static func deflate(_ archive: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = archive
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(archive.count))) + 64)
        input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
            }
        }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
