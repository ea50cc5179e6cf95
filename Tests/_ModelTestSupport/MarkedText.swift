import ModelSchema

/// Text with position markers, written the way swift-syntax's `assertParse` marks its input:
/// `1️⃣` … `9️⃣` and `🔟` go right before the spot a test expects something (for a diagnostic,
/// the `<` of the element it is reported on).
///
/// The markers are taken out of ``text``; ``location(of:)`` gives the 1-based line and column
/// where each one stood. Columns count UTF-8 bytes, as the XML parser counts them.
///
/// ```swift
/// let marked = MarkedText("""
///     <model>
///         1️⃣<entity name="A"/>
///     </model>
///     """)
/// marked.location(of: "1️⃣")  // 2:5
/// ```
public struct MarkedText: Sendable {
    /// The markers, in their usual order.
    public static let markers: [Character] = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"]

    /// The text without its markers.
    public let text: String
    /// The markers in the order they appear in the text.
    public let markersInOrder: [String]
    private let locations: [String: SourceLocation]

    /// Strips the markers out of `marked`, recording where each one was. A marker may appear
    /// only once.
    public init(_ marked: String) {
        var text = ""
        var order = [String]()
        var locations = [String: SourceLocation]()
        var line = 1
        var column = 1
        for character in marked {
            if Self.markers.contains(character) {
                let marker = String(character)
                precondition(locations[marker] == nil, "marker \(marker) appears twice")
                locations[marker] = SourceLocation(line: line, column: column)
                order.append(marker)
                continue
            }
            text.append(character)
            if character.unicodeScalars.last == "\n" {  // "\n" and "\r\n"
                line += 1
                column = 1
            } else {
                column += character.utf8.count
            }
        }
        self.text = text
        self.markersInOrder = order
        self.locations = locations
    }

    /// The UTF-8 bytes of the text, as a `contents` file holds them.
    public var bytes: [UInt8] { Array(text.utf8) }

    /// Where the marker stood, or `nil` when the text has no such marker.
    public func location(of marker: String) -> SourceLocation? {
        locations[marker]
    }
}
