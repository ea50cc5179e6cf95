/// Receives a document's elements from ``XMLDocumentParser`` as libxml2 parses them, so that a
/// reader can build what it needs without an intermediate element tree.
protocol XMLContentHandler: AnyObject {
    /// The handler's number for an element or attribute name, or `nil` for a name it does not
    /// know. Asked once per distinct name; tags then carry the number (``XMLStartTag/term``).
    func term(forName name: String) -> UInt8?

    /// An element starts; the tag is valid only during the call.
    func startElement(_ tag: XMLStartTag)

    /// The element most recently started and not yet ended ends.
    func endElement()

    /// Text or CDATA inside the current element, possibly in several pieces.
    func characters(_ text: UnsafeBufferPointer<UInt8>)
}
