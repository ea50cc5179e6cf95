import GRDB

/// The pointer map of an `auto_vacuum` database (sqlite.org/fileformat2, "Pointer Map or Ptrmap
/// Pages"): page 2 and every `usable / 5 + 1`th page after it hold a 5-byte entry (a type, 1 to
/// 5, and a parent page) for each page that follows. SQLite trusts these entries when it moves
/// pages, so a damaged map damages the store on the next write; a check of some tables only
/// (`PRAGMA quick_check(table)`) does not read the map, and reading it costs one page in
/// `usable / 5`, not the whole file.
enum PointerMap {
    private static let rootPage: UInt8 = 1
    private static let freePage: UInt8 = 2

    /// Throws `corrupt` (SQLite code 11) when the open database `db` of the store at `path` is an
    /// `auto_vacuum` database whose pointer map has an entry of no known type, a root or free
    /// page with a parent, another page without one, or root pages other than the schema's.
    /// Pages are read as the connection sees them: from the `-wal` where it holds them.
    static func check(_ db: Database, path: String) throws {
        guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") ?? 0 != 0 else { return }
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let file = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'") ?? path
        let roots = Set(try Int.fetchAll(db, sql: "SELECT rootpage FROM sqlite_master WHERE rootpage > 1"))
        guard pageSize > 0, pageCount > 1 else { return }
        // The usable size needs the reserved bytes of page 1's header.
        let header = try read([1], of: file, pageSize: pageSize)[1] ?? []
        guard header.count == pageSize else { throw damaged(path, "page 1 cannot be read") }
        let entriesPerPage = (pageSize - Int(header[20])) / 5
        let pendingBytePage = 0x4000_0000 / pageSize + 1
        var mapPages = [Int]()
        var page = 2
        while page <= pageCount {
            mapPages.append(page == pendingBytePage ? page + 1 : page)
            page += entriesPerPage + 1
        }
        let content = try read(mapPages, of: file, pageSize: pageSize)
        var foundRoots = Set<Int>()
        for mapPage in mapPages where mapPage <= pageCount {
            guard let bytes = content[mapPage] else { throw damaged(path, "pointer-map page \(mapPage) cannot be read") }
            for index in 0..<entriesPerPage {
                let covered = mapPage + 1 + index
                guard covered <= pageCount else { break }
                if covered == pendingBytePage { continue }
                let type = bytes[5 * index]
                let parent = bytes[5 * index + 1..<5 * index + 5].reduce(0) { $0 << 8 | Int($1) }
                guard (1...5).contains(type), (type == rootPage || type == freePage) == (parent == 0), parent <= pageCount else {
                    throw damaged(path, "pointer-map page \(mapPage) gives page \(covered) type \(type) and parent \(parent)")
                }
                if type == rootPage { foundRoots.insert(covered) }
            }
        }
        if foundRoots != roots {
            let odd = foundRoots.symmetricDifference(roots).sorted().prefix(3).map(String.init).joined(separator: ", ")
            throw damaged(path, "the pointer map's root pages are not the schema's (page \(odd))")
        }
    }

    /// `numbers` as the connection sees them: the last committed copy in the `-wal`, else the
    /// database file's.
    private static func read(_ numbers: [Int], of file: String, pageSize: Int) throws -> [Int: [UInt8]] {
        let log = WriteAheadLog(database: file, pageSize: pageSize, wanted: Set(numbers))
        let missing = numbers.filter { log.pages[$0] == nil }
        return try StoreFileReader.pages(missing, of: file, pageSize: pageSize).merging(log.pages) { _, logged in logged }
    }

    private static func damaged(_ path: String, _ detail: String) -> StoreError {
        StoreError(.corrupt, path: path, message: "the database is damaged: \(detail)", sqliteCode: 11)
    }
}
