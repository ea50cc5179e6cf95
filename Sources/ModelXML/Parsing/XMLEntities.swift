/// XML's predefined entities and character references, for escaping and unescaping text.
enum XMLEntities {
    /// The replacement text of `&name;`, or `nil` for a name that is not predefined.
    static func resolve(_ name: String) -> String? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits)
            }
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
