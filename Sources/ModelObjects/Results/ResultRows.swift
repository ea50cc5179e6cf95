import Foundation
import ModelExpression

/// A section's rows in order, kept in chunks of a few hundred: inserting or removing one row moves
/// the rows of its chunk only, so that a change to a section of 100,000 rows costs what a change
/// to a section of 1,000 does.
struct ResultRows<Object: ManagedObject> {
    private var chunks: [[ResultRow<Object>]] = []
    /// Each chunk's number of rows, read to find a row without touching the chunks.
    private var counts: [Int] = []
    private(set) var count = 0

    /// The size chunks are made at, and split at twice of.
    private static var chunkSize: Int { 512 }

    init(_ rows: [ResultRow<Object>]) {
        chunks = stride(from: 0, to: rows.count, by: Self.chunkSize).map { Array(rows[$0..<min($0 + Self.chunkSize, rows.count)]) }
        counts = chunks.map(\.count)
        count = rows.count
    }

    var isEmpty: Bool { count == 0 }

    /// Every row's object, in order.
    var objects: [Object] { chunks.flatMap { $0.map(\.object) } }

    subscript(index: Int) -> ResultRow<Object> {
        let (chunk, offset) = locate(index)
        return chunks[chunk][offset]
    }

    /// The chunk and the offset in it of the row at `index` (for `count`, the end of the last chunk).
    private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        var remaining = index
        for number in counts.indices {
            if remaining < counts[number] { return (number, remaining) }
            remaining -= counts[number]
        }
        return (max(0, counts.count - 1), counts.last ?? 0)
    }

    mutating func insert(_ row: ResultRow<Object>, at index: Int) {
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[row]]
            counts = [1]
            return
        }
        let (chunk, offset) = locate(index)
        chunks[chunk].insert(row, at: offset)
        counts[chunk] += 1
        if counts[chunk] >= 2 * Self.chunkSize {
            let tail = Array(chunks[chunk][Self.chunkSize...])
            chunks[chunk].removeSubrange(Self.chunkSize...)
            chunks.insert(tail, at: chunk + 1)
            counts[chunk] = Self.chunkSize
            counts.insert(tail.count, at: chunk + 1)
        }
    }

    mutating func remove(at index: Int) {
        let (chunk, offset) = locate(index)
        chunks[chunk].remove(at: offset)
        counts[chunk] -= 1
        count -= 1
        if counts[chunk] == 0 {
            chunks.remove(at: chunk)
            counts.remove(at: chunk)
        }
    }

    /// The index of the first row for which `before` is false, `before` being true for a prefix
    /// of the rows (those sorting before the one sought): first the chunk, then the row in it.
    func firstIndex(notBefore before: (ResultRow<Object>) -> Bool) -> Int {
        var (low, high) = (0, chunks.count)
        while low < high {
            let middle = (low + high) / 2
            if let last = chunks[middle].last, before(last) { low = middle + 1 } else { high = middle }
        }
        var index = counts[..<low].reduce(0, +)
        guard low < chunks.count else { return index }
        let rows = chunks[low]
        var (start, end) = (0, rows.count)
        while start < end {
            let middle = (start + end) / 2
            if before(rows[middle]) { start = middle + 1 } else { end = middle }
        }
        index += start
        return index
    }
}
