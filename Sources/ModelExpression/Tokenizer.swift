/// A token of a predicate format string.
enum Token: Sendable, Hashable, CustomStringConvertible {
    case word(String)
    case variable(String)
    case string(String)
    case number(String)
    case symbol(String)
    /// A format specifier without its `%` (`@`, `K`, `d`, `ld`, `f`, …), to be replaced by the
    /// next argument.
    case format(String)

    var description: String {
        switch self {
        case .word(let text), .number(let text), .symbol(let text): text
        case .format(let specifier): "%\(specifier)"
        case .variable(let name): "$\(name)"
        case .string(let text): "\"\(text)\""
        }
    }
}

/// Splits a predicate format string into tokens.
enum Tokenizer {
    private static let twoCharacterSymbols: Set<String> = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**"]

    static func tokens(of text: String) throws(PredicateParser.SyntaxError) -> [Token] {
        let characters = Array(text)
        var tokens = [Token]()
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "\"" || character == "'" {
                var value = ""
                index += 1
                while index < characters.count && characters[index] != character {
                    if characters[index] == "\\" && index + 1 < characters.count {
                        index += 1
                        switch characters[index] {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        default: value.append(characters[index])
                        }
                    } else {
                        value.append(characters[index])
                    }
                    index += 1
                }
                guard index < characters.count else {
                    throw PredicateParser.SyntaxError(message: "unterminated string", offset: tokens.count)
                }
                index += 1
                tokens.append(.string(value))
            } else if character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber
                && !Self.endsOperand(tokens.last))
            {
                var number = String(character)
                index += 1
                while index < characters.count && (characters[index].isNumber || characters[index] == "."
                    || characters[index] == "e" || characters[index] == "E")
                {
                    number.append(characters[index])
                    index += 1
                }
                tokens.append(.number(number))
            } else if character == "%" {
                tokens.append(try format(characters, &index, tokens.count))
            } else if character == "$" {
                index += 1
                let name = word(characters, &index)
                tokens.append(.variable(name))
            } else if character.isLetter || character == "_" || character == "@" || character == "#" {
                tokens.append(.word(word(characters, &index)))
            } else {
                if index + 1 < characters.count, twoCharacterSymbols.contains(String(characters[index...index + 1])) {
                    tokens.append(.symbol(String(characters[index...index + 1])))
                    index += 2
                } else {
                    tokens.append(.symbol(String(character)))
                    index += 1
                }
            }
        }
        return tokens
    }

    /// The conversions a format specifier may end in, and the length modifiers before them.
    private static let conversions: Set<Character> = ["@", "K", "d", "i", "u", "x", "X", "o", "f", "F", "g", "G", "e", "E"]
    private static let lengthModifiers: Set<Character> = ["h", "l", "q", "z", "t", "j"]

    /// The format specifier at `index` (a `%`); `%%` is a literal `%` symbol, as in `printf`.
    private static func format(_ characters: [Character], _ index: inout Int, _ offset: Int) throws(PredicateParser.SyntaxError) -> Token {
        var specifier = ""
        index += 1
        if index < characters.count, characters[index] == "%" {
            index += 1
            return .symbol("%")
        }
        while index < characters.count, lengthModifiers.contains(characters[index]), specifier.count < 2 {
            specifier.append(characters[index])
            index += 1
        }
        guard index < characters.count, conversions.contains(characters[index]), specifier.isEmpty || characters[index] != "@" && characters[index] != "K"
        else {
            throw PredicateParser.SyntaxError(message: "unknown format specifier '%\(specifier)\(index < characters.count ? String(characters[index]) : "")'", offset: offset)
        }
        specifier.append(characters[index])
        index += 1
        return .format(specifier)
    }

    private static func word(_ characters: [Character], _ index: inout Int) -> String {
        var word = ""
        while index < characters.count
            && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                || characters[index] == "@" || characters[index] == "#")
        {
            word.append(characters[index])
            index += 1
        }
        return word
    }

    /// Whether the previous token ends an operand, so that a following `-` is a minus sign.
    private static func endsOperand(_ token: Token?) -> Bool {
        switch token {
        case .word, .number, .string, .variable, .format, .symbol(")")?: true
        default: false
        }
    }
}
