import Foundation
import GRDB
import GRDBSQLite

/// The column form of attributes that allow external storage, as Core Data writes it: every value
/// starts with a marker byte, `0x01` followed by the bytes themselves, or `0x02` followed by the
/// name of a file in the store's `.<Store>_SUPPORT/_EXTERNAL_DATA/` folder (a UUID in capitals
/// and a NUL, 38 bytes in all: wire's stores hold both forms). Values above ``threshold`` go to
/// a file, smaller ones stay in the row.
package struct ExternalBinaryData: Sendable {
    /// Values larger than this many bytes are written to a file: Apple's engineers give 100 KB
    /// (Ask Apple 2022); wire's stores keep a 55,361-byte picture inline.
    package static let threshold = 100 * 1024
    static let inlineMarker: UInt8 = 0x01
    static let referenceMarker: UInt8 = 0x02

    /// The `_EXTERNAL_DATA` folder, nil for a store that is not a file (in memory).
    package let folder: URL?

    /// The folder of the store file `db` has open as its main database.
    package init(_ db: Database) {
        let path = sqlite3_db_filename(db.sqliteConnection, "main").map { String(cString: $0) } ?? ""
        folder = path.isEmpty ? nil : Self.folder(ofStoreAt: URL(fileURLWithPath: path))
    }

    /// `.<name without extension>_SUPPORT/_EXTERNAL_DATA` beside the store file.
    package static func folder(ofStoreAt store: URL) -> URL {
        let name = store.deletingPathExtension().lastPathComponent
        return store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT").appendingPathComponent("_EXTERNAL_DATA")
    }

    /// The value a column holds: inline bytes, a referenced file's contents (nil when the file is
    /// missing, as the store then has no value to give), or, without a marker, the bytes as they are.
    package func value(_ column: Data) -> Data? {
        switch column.first {
        case Self.inlineMarker: return column.dropFirst()
        case Self.referenceMarker:
            guard let name = Self.fileName(column), let folder else { return nil }
            return try? Data(contentsOf: folder.appendingPathComponent(name), options: .mappedIfSafe)
        default: return column
        }
    }

    /// The file a column refers to, nil for an inline value.
    static func fileName(_ column: Data) -> String? {
        guard column.first == referenceMarker else { return nil }
        let name = String(decoding: column.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
        // A file name, never a path: a hostile store cannot point outside the folder.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return name
    }

    /// The column form of `data`: inline with its marker, or written to a new file of the folder
    /// whose name the column then holds; `written` collects the new files.
    func column(for data: Data, written: inout [URL]) throws -> Data {
        guard data.count > Self.threshold, let folder else { return Data([Self.inlineMarker]) + data }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let file = folder.appendingPathComponent(name)
        written.append(file)
        try data.write(to: file, options: .withoutOverwriting)
        return Data([Self.referenceMarker]) + Data(name.utf8) + Data([0])
    }

    /// The file of a column being replaced or deleted, if it refers to one.
    func file(of column: DatabaseValue) -> URL? {
        guard case .blob(let data) = column.storage, let name = Self.fileName(data), let folder else { return nil }
        return folder.appendingPathComponent(name)
    }
}
