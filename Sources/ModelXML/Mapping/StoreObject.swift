import Foundation
import ModelSchema

/// One `<object>` of a Core Data XML store: its type, id, attributes and relationships.
struct StoreObject {
    var id: String
    var type: String
    var location: SourceLocation
    private var attributes: [String: String] = [:]
    private var relationships: [String: [String]] = [:]

    init(_ node: XMLElementNode) {
        id = node["id"] ?? ""
        type = node["type"] ?? ""
        location = node.location
        for child in node.children {
            guard let name = child["name"] else { continue }
            if child.name == "attribute" {
                attributes[name] = child.text
            } else if child.name == "relationship" {
                relationships[name] = (child["idrefs"] ?? "").split(separator: " ").map(String.init)
            }
        }
    }

    /// A string attribute, with the store's `\uXXXX` escapes decoded.
    func string(_ name: String) -> String? {
        attributes[name].map(Self.unescaped)
    }

    /// A binary attribute: base64 text wrapped at 76 columns.
    func binary(_ name: String) -> [UInt8]? {
        guard let text = attributes[name] else { return nil }
        return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }

    /// The ids a relationship refers to, in the file's order.
    func references(_ name: String) -> [String] {
        relationships[name] ?? []
    }

    /// Decodes `\uXXXX`, which the XML store writes with the two bytes of the UTF-16 unit swapped
    /// (`<` is `\u3c00`).
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\u") else { return text }
        var scalars = String.UnicodeScalarView()
        let characters = Array(text.unicodeScalars)
        var index = 0
        while index < characters.count {
            if characters[index] == "\\", index + 5 < characters.count, characters[index + 1] == "u",
                let unit = UInt16(String(String.UnicodeScalarView(characters[index + 2..<index + 6])), radix: 16),
                let scalar = Unicode.Scalar(unit.byteSwapped)
            {
                scalars.append(scalar)
                index += 6
            } else {
                scalars.append(characters[index])
                index += 1
            }
        }
        return String(scalars)
    }
}
