/// The primary keys of a fetch's rows in its order, four bytes each while every key fits (a
/// million keys in 4 MB), eight from the first that does not.
package struct PrimaryKeys: Sendable {
    private var narrow: [UInt32] = []
    private var wide: [Int64]?

    package var count: Int { wide?.count ?? narrow.count }

    package subscript(index: Int) -> Int64 {
        if let wide { return wide[index] }
        return Int64(narrow[index])
    }

    mutating func append(_ key: Int64) {
        if wide == nil, let small = UInt32(exactly: key) {
            narrow.append(small)
            return
        }
        if wide == nil {
            wide = narrow.map(Int64.init)
            narrow = []
        }
        wide?.append(key)
    }
}
