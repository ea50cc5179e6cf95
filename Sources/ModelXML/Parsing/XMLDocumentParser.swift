import CLibXML2
import ModelSchema

/// Parses an XML document with libxml2's SAX2 push parser, handing each element to an
/// ``XMLContentHandler`` as it is parsed.
///
/// Hostile input is refused, not defused: the parser never touches the network
/// (`XML_PARSE_NONET`), never loads a DTD, never substitutes entities, and stops at the first
/// entity declaration, so external entities and expansion bombs fail fast in bounded memory.
enum XMLDocumentParser {
    /// Documents larger than this are refused before parsing.
    static let maximumSize = 512 * 1024 * 1024
    /// Elements nested deeper than this are refused: models nest five deep, and a bound keeps
    /// every walk over the document (and the release of a tree built from it) shallow.
    static let maximumDepth = 256

    /// Parses `bytes`, calling `handler` for every element; throws for a document that is not
    /// well-formed, in which case what the handler saw is to be discarded.
    static func parse(_ bytes: [UInt8], into handler: some XMLContentHandler) throws(XMLParseError) {
        guard bytes.count < maximumSize else {
            throw XMLParseError(kind: .tooLarge, message: "file is larger than 512 MB", location: .unknown)
        }
        xmlInitParser()
        let state = XMLParserState(bytes: bytes, handler: handler)
        var callbacks = xmlSAXHandler()
        callbacks.initialized = XML_SAX2_MAGIC
        callbacks.startElementNs = startElement
        callbacks.endElementNs = endElement
        callbacks.characters = characters
        callbacks.cdataBlock = characters
        callbacks.entityDecl = entityDeclaration
        callbacks.serror = structuredError

        let unmanaged = Unmanaged.passRetained(state)
        defer { unmanaged.release() }
        guard let context = xmlCreatePushParserCtxt(&callbacks, unmanaged.toOpaque(), nil, 0, nil) else {
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
        guard context.pointee.wellFormed != 0, state.sawRoot else {
            throw XMLParseError(kind: .malformed, message: "document is not well-formed XML", location: .unknown)
        }
    }

    /// Parses `bytes` into an ``XMLElementNode`` tree, for small documents read as a whole.
    static func parse(_ bytes: [UInt8]) throws(XMLParseError) -> XMLElementNode {
        let builder = XMLTreeBuilder()
        try parse(bytes, into: builder)
        guard let root = builder.root else {
            throw XMLParseError(kind: .malformed, message: "document is not well-formed XML", location: .unknown)
        }
        return root
    }
}

// MARK: - SAX callbacks

private func state(_ pointer: UnsafeMutableRawPointer?) -> XMLParserState {
    Unmanaged<XMLParserState>.fromOpaque(pointer!).takeUnretainedValue()
}

private let startElement: startElementNsSAX2Func = {
    context, localName, _, _, _, _, attributeCount, _, attributes in
    let parser = state(context)
    guard let localName, parser.failure == nil else { return }
    guard parser.depth < XMLDocumentParser.maximumDepth else {
        parser.fail(
            .tooDeep, "elements are nested more than \(XMLDocumentParser.maximumDepth) deep",
            at: parser.startTagLocation())
        return
    }
    parser.depth += 1
    parser.sawRoot = true
    let count = attributes == nil ? 0 : Int(attributeCount)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { terms in
        if let attributes { parser.terms(ofAttributes: attributes, count: count, into: terms) }
        let tag = XMLStartTag(
            name: localName, count: count, attributes: attributes, terms: UnsafeBufferPointer(terms), parser: parser)
        parser.handler.startElement(tag)
    }
}

private let endElement: endElementNsSAX2Func = { context, _, _, _ in
    let parser = state(context)
    guard parser.depth > 0 else { return }
    parser.depth -= 1
    parser.handler.endElement()
}

private let characters: charactersSAXFunc = { context, text, length in
    let parser = state(context)
    guard parser.depth > 0, let text else { return }
    parser.handler.characters(UnsafeBufferPointer(start: text, count: Int(length)))
}

private let entityDeclaration: entityDeclSAXFunc = { context, name, _, _, _, _ in
    let parser = state(context)
    let declared = name.map { String(cString: $0) } ?? ""
    parser.fail(
        .entityDeclaration,
        "entity declaration '\(declared)' refused: model files never declare entities",
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
