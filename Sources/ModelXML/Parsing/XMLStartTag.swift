import CLibXML2
import ModelSchema

/// An element's start tag as libxml2 hands it over: its name, its attributes in document order
/// and, on request, where its `<` is. Valid only during ``XMLContentHandler/startElement(_:)``.
struct XMLStartTag {
    /// The handler's term for the element's name.
    let term: UInt8?
    private let namePointer: UnsafePointer<xmlChar>
    /// The number of attributes.
    let count: Int
    /// libxml2's five pointers per attribute: local name, prefix, URI, value start, value end.
    private let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    /// The handler's term for each attribute name, resolved when the tag arrives.
    private let terms: UnsafeBufferPointer<UInt8>
    private unowned let parser: XMLParserState

    init(
        name: UnsafePointer<xmlChar>, count: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        terms: UnsafeBufferPointer<UInt8>, parser: XMLParserState
    ) {
        self.namePointer = name
        self.term = parser.term(at: name)
        self.count = attributes == nil ? 0 : count
        self.attributes = attributes
        self.terms = terms
        self.parser = parser
    }

    /// The element's name.
    var name: String { parser.name(at: namePointer).string }

    /// The line and column of the tag's `<`. Ask once per tag: each call looks for it again.
    var location: SourceLocation { parser.startTagLocation() }

    /// The name of attribute `index`.
    func attributeName(at index: Int) -> String {
        guard let pointer = attributes?[index * 5] else { return "" }
        return parser.name(at: pointer).string
    }

    /// The handler's term for the name of attribute `index`, or ``unknownTerm``.
    func attributeTerm(at index: Int) -> UInt8 {
        terms[index]
    }

    /// The term of an attribute name the handler does not know.
    static let unknownTerm: UInt8 = 0xFF

    /// The value of attribute `index`, with character and entity references resolved.
    func value(at index: Int) -> String {
        XMLAttributeValue.decode(rawValue(at: index))
    }

    /// `body` applied to attribute `index`'s value as written, references unresolved.
    func withRawValue<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(rawValue(at: index))
    }

    /// Whether attribute `index` is written `YES`, as Xcode writes a boolean that is true.
    func isYes(at index: Int) -> Bool {
        let raw = rawValue(at: index)
        if raw.count == 3 {
            return raw[0] == UInt8(ascii: "Y") && raw[1] == UInt8(ascii: "E") && raw[2] == UInt8(ascii: "S")
        }
        // `YES` spelled with character references is still `YES`.
        return raw.count > 3 && raw.contains(UInt8(ascii: "&")) && value(at: index) == "YES"
    }

    /// Attribute `index`'s value as written, references unresolved.
    private func rawValue(at index: Int) -> UnsafeBufferPointer<UInt8> {
        guard let start = attributes?[index * 5 + 3], let end = attributes?[index * 5 + 4] else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: start, count: end - start)
    }
}
