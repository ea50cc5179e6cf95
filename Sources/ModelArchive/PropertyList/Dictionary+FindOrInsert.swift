extension Dictionary {
    /// The value of `key`, set to `value` first when `key` is missing: one lookup where
    /// reading and then inserting hash the key twice, which shows for the archive's tens of
    /// thousands of strings.
    @inline(__always)
    mutating func findOrInsert(_ key: Key, _ value: Value) -> Value {
        func read(_ slot: inout Value) -> Value { slot }
        return read(&self[key, default: value])
    }
}
