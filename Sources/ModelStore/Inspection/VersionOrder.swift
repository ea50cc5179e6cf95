import ModelSchema

/// The chronological order of a bundle's versions: by name, comparing runs of digits as numbers,
/// so that `Model 2` < `Model 10` and `zmessaging2.21.1` < `zmessaging2.101.0`, which is how
/// Xcode names successive versions.
public enum VersionOrder {
    public static func sorted(_ versions: [ModelVersion]) -> [ModelVersion] {
        versions.sorted { precedes($0.name, $1.name) }
    }

    /// Whether `a` comes before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let left = chunks(a)
        let right = chunks(b)
        for (x, y) in zip(left, right) where x != y {
            switch (Int(x), Int(y)) {
            case (let m?, let n?): return m < n
            default: return x < y
            }
        }
        return left.count < right.count
    }

    /// The name split into runs of digits and runs of anything else.
    private static func chunks(_ name: String) -> [String] {
        var result = [String]()
        var current = ""
        var inDigits = false
        for character in name {
            let digit = character.isASCII && character.isNumber
            if !current.isEmpty && digit != inDigits {
                result.append(current)
                current = ""
            }
            inDigits = digit
            current.append(character)
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
