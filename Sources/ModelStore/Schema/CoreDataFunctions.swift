import GRDB

/// The SQL functions Core Data registers on its connections and calls from the triggers it
/// writes into stores: derived attributes' triggers (`Z_DA_…`) report each value they update
/// through `NSCoreDataDATrigger…AffectedObjectValue` so that Core Data can refresh objects in
/// memory. Without them, any write to such a table fails with "no such function"; modelc has
/// no objects in memory to refresh, so they do nothing and return NULL. Fetches use the string
/// functions and collations of `CoreDataFunctions+Fetching.swift`.
package enum CoreDataFunctions {
    /// The functions the triggers of real stores call (CoreDataPlus's SampleModel2 stores).
    package static let names = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue",
        "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]

    /// Registers the functions on a connection that reads or writes a Core Data store.
    /// - Throws: `DatabaseError` when SQLite refuses a function.
    package static func register(in db: Database) throws {
        for name in names {
            db.add(function: DatabaseFunction(name, argumentCount: nil, pure: false) { _ in nil })
        }
        try registerFetching(in: db)
    }

    /// `configuration` with the functions registered on every connection it opens.
    package static func registering(in configuration: Configuration) -> Configuration {
        var configuration = configuration
        configuration.prepareDatabase { try register(in: $0) }
        return configuration
    }
}
