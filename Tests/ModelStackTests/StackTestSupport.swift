import Foundation
import GRDB
import ModelStack
import _ModelTestSupport

/// Shared steps of the loading-stack tests: corpus stores and models, copies, file snapshots.
enum StackTestSupport {
    /// Book and User at Model1, which the bundle's current version, Model3, keeps.
    static let bookStore = "hwaxxer__BookMigration/BookMigration/Model1.sqlite"
    static let bookModel = "hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld"
    /// A model that never made the book store.
    static let otherModel = "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld"

    /// A container for the corpus model at `model`, loading only the store at `store`.
    static func container(_ model: String, store: String, configure: (inout StoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
        let container = try PersistentContainer(name: "Test", model: URL(fileURLWithPath: Corpus.path(model)))
        var description = StoreDescription(url: URL(fileURLWithPath: store))
        configure(&description)
        container.persistentStoreDescriptions = [description]
        return container
    }

    /// Every file in `folder` with its bytes: what "unchanged" is compared on.
    static func files(in folder: URL) throws -> [String: Data] {
        var result = [String: Data]()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    /// A fresh temporary folder for an async test; the caller removes it.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-stack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The titles of the books in an open store, sorted.
    static func bookTitles(_ database: any DatabaseReader) throws -> [String] {
        try database.read { try String.fetchAll($0, sql: "SELECT ZTITLE FROM ZBOOK WHERE ZTITLE IS NOT NULL ORDER BY ZTITLE") }
    }
}
