import ModelSchema

/// An element of a parsed XML document: name, attributes in document order, children, text
/// and where its start tag begins.
struct XMLElementNode: Sendable {
    var name: String
    var attributes: [(name: String, value: String)]
    var children: [XMLElementNode] = []
    var text: String = ""
    var location: SourceLocation

    /// The value of the named attribute, or `nil` when absent.
    subscript(attribute: String) -> String? {
        let length = attribute.utf8.count
        for pair in attributes where pair.name.utf8.count == length && pair.name == attribute { return pair.value }
        return nil
    }

    /// Whether the attribute is written as `YES` (Xcode writes boolean attributes only when true).
    func flag(_ attribute: String) -> Bool {
        self[attribute] == "YES"
    }

    /// The children with the given element name.
    func children(named name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }

    func firstChild(named name: String) -> XMLElementNode? {
        children.first { $0.name == name }
    }
}
