import Foundation
import GRDB

/// An Item row as a performance-minded GRDB user writes it: a struct reading columns by index.
public struct ItemRow: FetchableRecord, Sendable {
    public var a0, a1, a2, a3, a4, a5, a6, a7, a8, a9: Int64

    public init(row: Row) {
        (a0, a1, a2, a3, a4) = (row[0], row[1], row[2], row[3], row[4])
        (a5, a6, a7, a8, a9) = (row[5], row[6], row[7], row[8], row[9])
    }

    /// The sum of the ten values, read so that no side can skip a column.
    public var sum: Int64 { a0 &+ a1 &+ a2 &+ a3 &+ a4 &+ a5 &+ a6 &+ a7 &+ a8 &+ a9 }

    /// The columns both record kinds select, in `init(row:)`'s order.
    public static let select = "SELECT ZA0, ZA1, ZA2, ZA3, ZA4, ZA5, ZA6, ZA7, ZA8, ZA9 FROM ZITEM"
}

/// The same record as a final class: an object per row, as the object layer makes.
public final class ItemObjectRow: FetchableRecord {
    public let a0, a1, a2, a3, a4, a5, a6, a7, a8, a9: Int64

    public init(row: Row) {
        (a0, a1, a2, a3, a4) = (row[0], row[1], row[2], row[3], row[4])
        (a5, a6, a7, a8, a9) = (row[5], row[6], row[7], row[8], row[9])
    }

    /// The sum of the ten values.
    public var sum: Int64 { a0 &+ a1 &+ a2 &+ a3 &+ a4 &+ a5 &+ a6 &+ a7 &+ a8 &+ a9 }
}

/// The same row through `Decodable`, GRDB's slowest and shortest way to write a record.
public struct ItemDecodable: FetchableRecord, Decodable, Sendable {
    public var ZA0, ZA1, ZA2, ZA3, ZA4, ZA5, ZA6, ZA7, ZA8, ZA9: Int64

    /// The sum of the ten values.
    public var sum: Int64 { ZA0 &+ ZA1 &+ ZA2 &+ ZA3 &+ ZA4 &+ ZA5 &+ ZA6 &+ ZA7 &+ ZA8 &+ ZA9 }
}

/// The Library-shaped store's author, the destination of a book's association.
public struct AuthorRow: FetchableRecord, TableRecord, Sendable {
    public static let databaseTableName = "ZAUTHOR"
    public var id: Int64, name: String, born: Date?

    public init(row: Row) {
        (id, name) = (row[0], row[1])
        born = (row[2] as Double?).map(Date.init(timeIntervalSinceReferenceDate:))
    }
}

/// A book as a performance-minded GRDB user writes it: columns by index, the author as the key
/// its `belongsTo` association follows (what a fault holds until it fires).
public struct BookRow: FetchableRecord, TableRecord, Sendable {
    public static let databaseTableName = "ZBOOK"
    public static let author = belongsTo(AuthorRow.self, using: ForeignKey(["ZAUTHOR"]))
    public var id: Int64, isbn: String, title: String, pageCount: Int32, publishedAt: Date?, authorID: Int64?

    public init(row: Row) {
        (id, isbn, title, pageCount) = (row[0], row[1], row[2], row[3])
        publishedAt = (row[4] as Double?).map(Date.init(timeIntervalSinceReferenceDate:))
        authorID = row[5]
    }

    /// The columns both book records select, in `init(row:)`'s order.
    public static let select = "SELECT Z_PK, ZISBN, ZTITLE, ZPAGECOUNT, ZPUBLISHEDAT, ZAUTHOR FROM ZBOOK"
}

/// The same book as a final class: an object per row, as the object layer makes.
public final class BookObjectRow: FetchableRecord {
    public let id: Int64, isbn: String, title: String, pageCount: Int32, publishedAt: Date?, authorID: Int64?

    public init(row: Row) {
        (id, isbn, title, pageCount) = (row[0], row[1], row[2], row[3])
        publishedAt = (row[4] as Double?).map(Date.init(timeIntervalSinceReferenceDate:))
        authorID = row[5]
    }
}

/// The same book through `Decodable` (Core Data's dates are seconds since 2001, so a `Double`).
public struct BookDecodable: FetchableRecord, Decodable, Sendable {
    public var Z_PK: Int64, ZISBN: String, ZTITLE: String, ZPAGECOUNT: Int32, ZPUBLISHEDAT: Double?, ZAUTHOR: Int64?

    /// The publication date as a `Date`.
    public var publishedAt: Date? { ZPUBLISHEDAT.map(Date.init(timeIntervalSinceReferenceDate:)) }
}

/// What a book reading leaves, so that no side of a shelf benchmark can skip a column.
public func bookSink(pageCount: Int32, title: String?, isbn: String?, publishedAt: Date?, hasAuthor: Bool) -> Int {
    Int(pageCount) &+ (title?.utf8.count ?? 0) &+ (isbn?.utf8.count ?? 0)
        &+ Int(publishedAt?.timeIntervalSinceReferenceDate ?? 0) &+ (hasAuthor ? 1 : 0)
}
