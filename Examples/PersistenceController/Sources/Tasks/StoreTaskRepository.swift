import Foundation
import GRDB
import ModelSchema
import ModelStack
import ModelStore

/// The ``TaskRepository`` over the controller's loaded store: rows in Core Data's own layout,
/// so the same file opens in the app's Core Data stack on Apple platforms.
///
/// Tables and columns come from the model through `StoreLayout` (Core Data's naming, never
/// spelled here), new primary keys from `Z_PRIMARYKEY` as Core Data allocates them, and dates
/// are seconds since 2001-01-01, as Core Data stores them.
public struct StoreTaskRepository: TaskRepository {
    /// Why a repository cannot be made.
    public enum RepositoryError: Error {
        /// The controller's store is not loaded yet.
        case notLoaded
        /// The model has no `TaskItem` entity with the attributes the repository reads.
        case modelMismatch
    }

    private let database: any DatabaseWriter
    private let entityNumber: Int
    private let sql: Statements

    /// A repository on the store `controller` loaded.
    /// - Throws: ``RepositoryError/notLoaded`` before ``PersistenceController/load()``.
    public init(_ controller: PersistenceController) throws {
        guard let database = controller.container.database, let version = controller.container.model.currentVersion else {
            throw RepositoryError.notLoaded
        }
        guard let entity = StoreLayout(version).entity(named: "TaskItem"), let sql = Statements(entity) else {
            throw RepositoryError.modelMismatch
        }
        self.database = database
        entityNumber = entity.number
        self.sql = sql
    }

    // MARK: - TaskRepository

    public func add(title: String) async throws -> TaskItem {
        let createdAt = Date()
        let (sql, entityNumber) = (self.sql, self.entityNumber)
        let id = try await database.write { db -> Int64 in
            // Core Data's counter: the last primary key handed out for the entity's hierarchy.
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = ?", arguments: [entityNumber])
            let id = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entityNumber]) ?? 1
            try db.execute(sql: sql.insert, arguments: [id, entityNumber, title, createdAt.timeIntervalSinceReferenceDate])
            return id
        }
        return TaskItem(id: id, title: title, isDone: false, createdAt: createdAt)
    }

    public func all() async throws -> [TaskItem] {
        let sql = self.sql
        return try await database.read { db in
            try Row.fetchAll(db, sql: sql.selectAll).map { row in
                TaskItem(id: row[0], title: row[1], isDone: row[2], createdAt: Date(timeIntervalSinceReferenceDate: row[3]))
            }
        }
    }

    public func setDone(_ isDone: Bool, for id: TaskItem.ID) async throws {
        let sql = self.sql
        try await database.write { try $0.execute(sql: sql.setDone, arguments: [isDone, id]) }
    }

    public func delete(_ id: TaskItem.ID) async throws {
        let sql = self.sql
        try await database.write { try $0.execute(sql: sql.delete, arguments: [id]) }
    }

    // MARK: - Statements

    /// The repository's SQL, with the table and columns Core Data gives `TaskItem`.
    private struct Statements: Sendable {
        var insert: String
        var selectAll: String
        var setDone: String
        var delete: String

        init?(_ entity: EntityLayout) {
            guard let title = entity.columns["title"], let isDone = entity.columns["isDone"], let createdAt = entity.columns["createdAt"] else {
                return nil
            }
            let table = entity.table.quotedDatabaseIdentifier
            insert = "INSERT INTO \(table) (Z_PK, Z_ENT, Z_OPT, \(title), \(isDone), \(createdAt)) VALUES (?, ?, 1, ?, 0, ?)"
            selectAll = "SELECT Z_PK, \(title), \(isDone), \(createdAt) FROM \(table) ORDER BY \(createdAt), Z_PK"
            // Z_OPT counts the row's versions, which Core Data's optimistic locking compares.
            setDone = "UPDATE \(table) SET \(isDone) = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?"
            delete = "DELETE FROM \(table) WHERE Z_PK = ?"
        }
    }
}
