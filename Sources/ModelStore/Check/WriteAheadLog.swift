import Foundation

/// The committed frames of a store's `-wal`, read as SQLite recovers it (sqlite.org/fileformat2,
/// "The Write-Ahead Log"): frames count while their salts match the header's and their running
/// checksum holds, up to the last commit frame; the last such frame of a page is its current
/// content. The `-wal` carries no lock (``StoreFileReader``), so it is read as any file.
struct WriteAheadLog {
    /// Page number → its current content in the log.
    private(set) var pages: [Int: [UInt8]] = [:]

    private static let headerSize = 32
    private static let frameHeaderSize = 24

    /// The log beside the database at `path` for pages of `pageSize` bytes, keeping the content
    /// only of the pages in `wanted` (a check reads a few pages, not the whole log into memory);
    /// empty when there is no log or its header does not match.
    init(database path: String, pageSize: Int, wanted: Set<Int>) {
        guard let handle = FileHandle(forReadingAtPath: path + "-wal") else { return }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: Self.headerSize).map(Array.init), header.count == Self.headerSize,
            Self.word(header, 0) & 0xFFFF_FFFE == 0x377F_0682, Int(Self.word(header, 8)) == pageSize
        else { return }
        let bigEndian = Self.word(header, 0) & 1 == 1
        var sum = Self.checksum(header[0..<24], bigEndian: bigEndian, from: (0, 0))
        guard sum == (Self.word(header, 24), Self.word(header, 28)) else { return }
        let salts = (Self.word(header, 16), Self.word(header, 20))
        var pending = [Int: [UInt8]]()
        while let frame = try? handle.read(upToCount: Self.frameHeaderSize + pageSize).map(Array.init),
            frame.count == Self.frameHeaderSize + pageSize, (Self.word(frame, 8), Self.word(frame, 12)) == salts
        {
            sum = Self.checksum(frame[0..<8], bigEndian: bigEndian, from: sum)
            sum = Self.checksum(frame[Self.frameHeaderSize...], bigEndian: bigEndian, from: sum)
            guard sum == (Self.word(frame, 16), Self.word(frame, 20)) else { break }
            let page = Int(Self.word(frame, 0))
            if wanted.contains(page) { pending[page] = Array(frame[Self.frameHeaderSize...]) }
            if Self.word(frame, 4) != 0 {
                pages.merge(pending) { _, new in new }
                pending = [:]
            }
        }
    }

    /// The big-endian 32-bit integer at `offset`.
    private static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// SQLite's WAL checksum of `bytes` (a multiple of 8), continuing from `start`.
    private static func checksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, from start: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = start
        var index = bytes.startIndex
        func next() -> UInt32 {
            let slice = bytes[index..<index + 4]
            index += 4
            return bigEndian ? slice.reduce(0) { $0 << 8 | UInt32($1) } : slice.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        while index < bytes.endIndex {
            let (x0, x1) = (next(), next())
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
        }
        return (s0, s1)
    }
}
