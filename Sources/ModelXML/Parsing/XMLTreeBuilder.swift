/// Builds an ``XMLElementNode`` tree from the parser's events, for documents that are read as
/// a whole (`.xccurrentversion`) rather than streamed into a model.
final class XMLTreeBuilder: XMLContentHandler {
    private var stack: [XMLElementNode] = []
    private(set) var root: XMLElementNode?

    func term(forName name: String) -> UInt8? { nil }

    func startElement(_ tag: XMLStartTag) {
        var pairs = [(name: String, value: String)]()
        pairs.reserveCapacity(tag.count)
        for index in 0..<tag.count {
            pairs.append((tag.attributeName(at: index), tag.value(at: index)))
        }
        stack.append(XMLElementNode(name: tag.name, attributes: pairs, location: tag.location))
    }

    func endElement() {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        guard !stack.isEmpty else { return }
        // Indentation between elements is never read: skip whitespace-only runs.
        if text.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) { return }
        stack[stack.count - 1].text += String(decoding: text, as: UTF8.self)
    }
}
