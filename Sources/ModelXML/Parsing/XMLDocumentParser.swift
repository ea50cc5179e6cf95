import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ModelSchema

/// Parses an XML document with libxml2's SAX2 push parser into an ``XMLElementNode`` tree.
///
/// Hostile input is refused, not defused: the parser never touches the network
/// (`XML_PARSE_NONET`), never loads a DTD, never substitutes entities, and stops at the first
/// entity declaration, so external entities and expansion bombs fail fast in bounded memory.
/// Each element records the line and column of its `<`.
enum XMLDocumentParser {
    /// Documents larger than this are refused before parsing.
    static let maximumSize = 512 * 1024 * 1024

    static func parse(_ bytes: [UInt8]) throws(XMLParseError) -> XMLElementNode {
        guard bytes.count < maximumSize else {
            throw XMLParseError(kind: .tooLarge, message: "file is larger than 512 MB", location: .unknown)
        }
        xmlInitParser()
        let state = ParserState(bytes: bytes)
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = startElement
        handler.endElementNs = endElement
        handler.characters = characters
        handler.cdataBlock = characters
        handler.entityDecl = entityDeclaration
        handler.serror = structuredError

        let unmanaged = Unmanaged.passRetained(state)
        defer { unmanaged.release() }
        guard let context = xmlCreatePushParserCtxt(&handler, unmanaged.toOpaque(), nil, 0, nil) else {
            throw XMLParseError(kind: .malformed, message: "cannot create an XML parser", location: .unknown)
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlCtxtUseOptions(context, options)
        state.context = context

        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { start in
                _ = xmlParseChunk(context, start, Int32(buffer.count), 1)
            }
        }
        if let failure = state.failure { throw failure }
        guard context.pointee.wellFormed != 0, let root = state.root else {
            throw XMLParseError(kind: .malformed, message: "document is not well-formed XML", location: .unknown)
        }
        return root
    }
}

// MARK: - Parser state

/// What the SAX callbacks build: a stack of open elements and the finished root.
private final class ParserState {
    let bytes: [UInt8]
    var context: xmlParserCtxtPtr?
    var stack: [XMLElementNode] = []
    var root: XMLElementNode?
    var failure: XMLParseError?
    private var lines = LineCounter()
    /// Element and attribute names by libxml2's interned (dictionary) pointer: one String each.
    private var names: [UnsafePointer<xmlChar>: String] = [:]

    func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        if let known = names[pointer] { return known }
        let made = String(cString: pointer)
        names[pointer] = made
        return made
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The position of the `<` that opens the element whose start tag was just parsed.
    func startTagLocation() -> SourceLocation {
        guard let context else { return .unknown }
        var offset = min(Int(xmlByteConsumed(context)), bytes.count - 1)
        return bytes.withUnsafeBufferPointer { buffer in
            while offset > 0 && buffer[offset] != UInt8(ascii: "<") { offset -= 1 }
            return lines.location(ofOffset: offset, in: buffer)
        }
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

private func state(_ pointer: UnsafeMutableRawPointer?) -> ParserState {
    Unmanaged<ParserState>.fromOpaque(pointer!).takeUnretainedValue()
}

private func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
    guard let pointer else { return "" }
    return String(cString: pointer)
}

// MARK: - SAX callbacks

private let startElement: startElementNsSAX2Func = {
    context, localName, _, _, _, _, attributeCount, _, attributes in
    let parser = state(context)
    var pairs = [(name: String, value: String)]()
    pairs.reserveCapacity(Int(attributeCount))
    if let attributes {
        // Five pointers per attribute: local name, prefix, URI, value start, value end.
        for index in 0..<Int(attributeCount) {
            let base = index * 5
            let name = parser.name(attributes[base])
            guard let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            let buffer = UnsafeBufferPointer(start: start, count: end - start)
            pairs.append((name, decodeAttributeValue(buffer)))
        }
    }
    let node = XMLElementNode(name: parser.name(localName), attributes: pairs, location: parser.startTagLocation())
    parser.stack.append(node)
}

private let endElement: endElementNsSAX2Func = { context, _, _, _ in
    let parser = state(context)
    guard let node = parser.stack.popLast() else { return }
    if parser.stack.isEmpty {
        parser.root = node
    } else {
        parser.stack[parser.stack.count - 1].children.append(node)
    }
}

private let characters: charactersSAXFunc = { context, text, length in
    let parser = state(context)
    guard !parser.stack.isEmpty, let text else { return }
    let buffer = UnsafeBufferPointer(start: text, count: Int(length))
    // Indentation between elements is never read: skip whitespace-only runs.
    if buffer.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) { return }
    parser.stack[parser.stack.count - 1].text += String(decoding: buffer, as: UTF8.self)
}

private let entityDeclaration: entityDeclSAXFunc = { context, name, _, _, _, _ in
    let parser = state(context)
    parser.fail(
        .entityDeclaration,
        "entity declaration '\(string(name))' refused: model files never declare entities",
        at: parser.startTagLocation())
}

private let structuredError: xmlStructuredErrorFunc = { context, error in
    guard let context, let error else { return }
    let parser = state(context)
    guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
    var message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
    while message.last == "\n" || message.last == " " { message.removeLast() }
    let location = SourceLocation(line: Int(error.pointee.line), column: max(1, Int(error.pointee.int2)))
    parser.fail(.malformed, message, at: location)
}

/// Attribute values arrive with entity and character references still escaped when entity
/// substitution is off; this resolves the five predefined entities and numeric references.
private func decodeAttributeValue(_ buffer: UnsafeBufferPointer<xmlChar>) -> String {
    guard buffer.contains(UInt8(ascii: "&")) else { return String(decoding: buffer, as: UTF8.self) }
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
