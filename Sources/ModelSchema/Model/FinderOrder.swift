/// Orders names as Finder and Xcode list them: case-insensitively, with digit runs compared as
/// numbers (`Model 2` before `Model 10`).
public enum FinderOrder {
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let a = chunks(lhs), b = chunks(rhs)
        for (x, y) in zip(a, b) where x != y {
            switch (x, y) {
            case (.number(let m), .number(let n)): return m < n
            case (.text(let s), .text(let t)): return s < t
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        if a.count != b.count { return a.count < b.count }
        return lhs < rhs
    }

    private enum Chunk: Equatable {
        case text(String)
        case number(Double)
    }

    private static func chunks(_ name: String) -> [Chunk] {
        var result = [Chunk]()
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            result.append(inDigits ? .number(Double(current) ?? 0) : .text(current.lowercased()))
            current = ""
        }
        for character in name {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits {
                flush()
                inDigits = isDigit
            }
            current.append(character)
        }
        flush()
        return result
    }
}
