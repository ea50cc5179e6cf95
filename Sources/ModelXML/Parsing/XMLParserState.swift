import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ModelSchema

/// What one parse keeps between libxml2's callbacks: the document, the handler, the interned
/// names, the depth and the first failure.
final class XMLParserState {
    let bytes: [UInt8]
    let handler: any XMLContentHandler
    var context: xmlParserCtxtPtr?
    /// Elements started and not yet ended.
    var depth = 0
    /// Whether a root element was seen.
    var sawRoot = false
    var failure: XMLParseError?
    private var names = XMLNameTable()
    private var lines = LineCounter()

    init(bytes: [UInt8], handler: any XMLContentHandler) {
        self.bytes = bytes
        self.handler = handler
    }

    func name(at pointer: UnsafePointer<xmlChar>) -> XMLNameTable.Name {
        names.name(at: pointer) { handler.term(forName: $0) }
    }

    func term(at pointer: UnsafePointer<xmlChar>) -> UInt8? {
        names.term(at: pointer) { handler.term(forName: $0) }
    }

    func terms(
        ofAttributes attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, count: Int,
        into terms: UnsafeMutableBufferPointer<UInt8>
    ) {
        names.terms(ofAttributes: attributes, count: count, into: terms) { handler.term(forName: $0) }
    }

    /// The position of the `<` that opens the element whose start tag was just parsed.
    func startTagLocation() -> SourceLocation {
        guard let context, !bytes.isEmpty else { return .unknown }
        let consumed = min(Int(xmlByteConsumed(context)), bytes.count - 1)
        return bytes.withUnsafeBufferPointer { buffer in
            // A start tag's attribute values cannot hold a `<`: the last one before what libxml2
            // has consumed opens the tag.
            lines.location(ofOffset: Self.lastLessThan(atOrBefore: consumed, in: buffer), in: buffer)
        }
    }

    /// The offset of the last `<` at or before `end`, or 0: eight bytes at a time, since a
    /// start tag with its attributes runs to a hundred bytes and more.
    private static func lastLessThan(atOrBefore end: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        let base = UnsafeRawPointer(buffer.baseAddress!)
        var offset = end
        while offset >= 8 {
            // A word holds a `<` when some byte of word ^ "<<<<<<<<" is zero.
            let word = base.loadUnaligned(fromByteOffset: offset - 7, as: UInt64.self) ^ 0x3C3C_3C3C_3C3C_3C3C
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            offset -= 8
        }
        while offset > 0 && base.load(fromByteOffset: offset, as: UInt8.self) != UInt8(ascii: "<") { offset -= 1 }
        return offset
    }

    func fail(_ kind: XMLParseError.Kind, _ message: String, at location: SourceLocation) {
        if failure == nil {
            failure = XMLParseError(kind: kind, message: message, location: location)
        }
        if let context { xmlStopParser(context) }
    }
}

/// Turns byte offsets into 1-based lines and columns, moving forward through the document.
private struct LineCounter {
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    mutating func location(ofOffset target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        if target < offset {
            offset = 0
            line = 1
            lineStart = 0
        }
        // memchr finds each newline far faster than a loop over every byte.
        while offset < target, let base = bytes.baseAddress {
            guard let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), target - offset) else {
                offset = target
                break
            }
            line += 1
            offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
            lineStart = offset
        }
        return SourceLocation(line: line, column: target - lineStart + 1)
    }
}
