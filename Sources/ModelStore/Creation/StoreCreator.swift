import Foundation
import GRDB
import ModelArchive
import ModelSchema

/// Creates an empty store exactly as Core Data does for a model version: its schema, entity
/// rows, metadata and model cache, with Core Data's pragmas.
public enum StoreCreator {
    /// How the new store journals; Core Data uses WAL unless the app asks otherwise.
    public enum JournalMode: String, Sendable, CaseIterable {
        case wal, delete
    }

    /// Writes the store at `path`, which must not exist: modelc never replaces a store; with
    /// `persistentHistory`, with the tables Core Data adds for history tracking; for a named
    /// `configuration`, with the tables of that configuration's entities only. The store
    /// is built under a temporary name beside `path` and moved into place when complete, so a
    /// failure leaves nothing behind. A model whose table would exceed SQLite's column limit is
    /// refused before anything is laid out.
    @discardableResult
    public static func create(
        at path: String, version: ModelVersion, framework: FrameworkVersion = .current,
        journalMode: JournalMode = .wal, uuid: UUID = UUID(), persistentHistory: Bool = false, configuration: String? = nil
    ) throws -> StoreLayout {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) { throw StoreError.alreadyExists(path: path) }
        let folder = (path as NSString).deletingLastPathComponent
        guard manager.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
            throw StoreError.permissionDenied(path: path, writing: true)
        }
        try refuseTooWide(version, path: path)
        let staging = "\(path).modelc-\(UUID().uuidString)"
        defer { StoreFiles(path: staging).removeDatabaseAndSidecars() }
        let layout = StoreLayout(version, framework: framework, persistentHistory: persistentHistory, configuration: configuration)
        try StoreError.mapping(path: path) {
            try write(staging, layout: layout, version: version, framework: framework, journalMode: journalMode, uuid: uuid)
            try manager.moveItem(atPath: staging, toPath: path)
        }
        return layout
    }

    /// Refuses, before any table is laid out, a model whose table would exceed SQLite's column
    /// limit; `path` names the store in the error.
    static func refuseTooWide(_ version: ModelVersion, path: String) throws {
        if let wide = ColumnLimit.firstTooWide(version) {
            throw StoreError.tooManyColumns(path: path, table: wide.table, columns: wide.columns)
        }
    }

    /// Writes the empty store of `layout` into the file at `file`, which is missing or empty,
    /// with Core Data's pragmas, and closes it.
    static func write(
        _ file: String, layout: StoreLayout, version: ModelVersion, framework: FrameworkVersion, journalMode: JournalMode, uuid: UUID
    ) throws {
        let queue = try DatabaseQueue(path: file)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA auto_vacuum = 2")
            try db.inTransaction {
                try populate(db, layout: layout, version: version, framework: framework, uuid: uuid)
                return .commit
            }
            if journalMode == .wal { try db.execute(sql: "PRAGMA journal_mode = WAL") }
        }
        try queue.close()
    }

    /// An in-memory store with the same schema, entity rows, metadata and model cache as
    /// ``create(at:version:framework:journalMode:uuid:persistentHistory:configuration:)`` writes: for tests and previews; it is
    /// gone when the returned queue is released. Its connection has Core Data's SQL functions
    /// (`CoreDataFunctions`), as the stores a loader opens from files do.
    public static func createInMemory(
        version: ModelVersion, framework: FrameworkVersion = .current, uuid: UUID = UUID(), persistentHistory: Bool = false,
        configuration: String? = nil
    ) throws -> DatabaseQueue {
        try refuseTooWide(version, path: ":memory:")
        let queue = try DatabaseQueue(configuration: CoreDataFunctions.registering(in: Configuration()))
        try queue.write { db in
            let layout = StoreLayout(version, framework: framework, persistentHistory: persistentHistory, configuration: configuration)
            try populate(db, layout: layout, version: version, framework: framework, uuid: uuid)
        }
        return queue
    }

    private static func populate(
        _ db: Database, layout: StoreLayout, version: ModelVersion, framework: FrameworkVersion, uuid: UUID
    ) throws {
        for statement in layout.schema.statements { try db.execute(sql: statement) }
        for entity in layout.schema.entities {
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                arguments: [entity.number, entity.name, entity.superNumber])
        }
        let plist = try MetadataPlist.encode(MetadataPlist.make(for: version, framework: framework))
        try db.execute(
            sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
            arguments: [uuid.uuidString, plist])
        if framework.writesModelCache {
            let cache = ModelCache.deflate(ModelArchiver.archive(version))
            try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [Data(cache)])
        }
    }
}
