/// Counts in words, so that output never says "1 rows".
extension Int {
    /// `"1 row"`, `"2 rows"`; `plural` for nouns that do not take an s (`"entities"`).
    func counting(_ singular: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? singular : plural ?? singular + "s")"
    }
}
