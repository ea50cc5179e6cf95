import Foundation
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// `StoreCreator` against the stores Core Data wrote: for every corpus store whose creating
/// version is known, the store created for that version has the same tables, columns (names,
/// declared types, order), indexes, entity rows and Core Data metadata keys.
///
/// Some real stores were later changed in place by Core Data's lightweight migrations; what that
/// left behind is declared store by store in ``inPlaceChanges`` and checked as declared.
@Suite(Corpus.required)
struct CorpusSchemaTests {
    /// What in-place migrations left in a store, compared with a store created fresh.
    struct InPlaceChanges {
        /// Columns `ALTER TABLE ADD COLUMN` appended at the end of a table, out of Core Data's
        /// sort order; the table's own DDL marks them (see `StoreTable.appendedColumnNames`).
        var appendedColumns: [String: [String]] = [:]
        /// Indexes kept under an earlier version's name (older entity numbers, or the pre-iOS 11
        /// `<TABLE>_<COLUMN>_INDEX` style) that index the same columns as a current one.
        var leftoverIndexes = false
        /// Join tables a migration renamed when the other side of the relationship came to name
        /// them (Core Data's hash order of the entity's keys changed with new attributes): the
        /// table keeps its earlier column order and primary key, and the indexes of its earlier
        /// names, while the index of its current name is the one a fresh store has.
        var joinTablesRenamedInPlace: Set<String> = []
        /// Entities renamed with a renaming identifier: `Z_PRIMARYKEY` keeps the old name.
        var renamedEntityRows: [String: String] = [:]
    }

    static let wireLeftovers = InPlaceChanges(leftoverIndexes: true)
    static let inPlaceChanges: [String: InPlaceChanges] = [
        // Migrated from SampleModel_V1: ExpensiveSportCar became LuxuryCar by renaming identifier.
        "SampleModel_V2.sqlite": InPlaceChanges(renamedEntityRows: ["LuxuryCar": "ExpensiveSportCar"]),
        // Wire's stores were carried forward by migrations from 1.x (SOURCES.md).
        "store2-60-0.wiredatabase": wireLeftovers,
        "store2-78-0.wiredatabase": wireLeftovers,
        "store2-82-0.wiredatabase": wireLeftovers,
        "store2-91-0.wiredatabase": InPlaceChanges(
            appendedColumns: [
                "ZGENERICMESSAGEDATA": ["ZNONCE"], "ZUSER": ["ZANALYTICSIDENTIFIER", "ZDOMAIN"],
                "ZCONVERSATION": ["ZDRAFTMESSAGENONCE", "ZNEEDSTOCALCULATEUNREADMESSAGES"],
                "ZUSERCLIENT": ["ZNEEDSTONOTIFYOTHERUSERABOUTSESSIONRESET"],
                "ZMESSAGE": ["ZDECRYPTIONERRORCODE", "ZPARTICIPANTSREMOVEDREASON"],
            ],
            leftoverIndexes: true),
        "store2-98-0.wiredatabase": InPlaceChanges(
            appendedColumns: [
                "ZGENERICMESSAGEDATA": ["ZNONCE"], "ZUSER": ["ZANALYTICSIDENTIFIER", "ZDOMAIN"],
                "ZCONVERSATION": ["ZDRAFTMESSAGENONCE", "ZNEEDSTOCALCULATEUNREADMESSAGES", "ZDOMAIN", "ZACCESSROLESTRINGSV2"],
                "ZUSERCLIENT": ["ZNEEDSTONOTIFYOTHERUSERABOUTSESSIONRESET", "ZNEEDSTOUPDATECAPABILITIES", "ZNEEDSSESSIONMIGRATION"],
                "ZMESSAGE": ["ZDECRYPTIONERRORCODE", "ZPARTICIPANTSREMOVEDREASON"], "ZFEATURE": ["ZHASINITIALDEFAULT"],
            ],
            leftoverIndexes: true, joinTablesRenamedInPlace: ["Z_25TRUSTEDBYCLIENTS"]),
        "store2-101-0.wiredatabase": InPlaceChanges(
            appendedColumns: [
                "ZGENERICMESSAGEDATA": ["ZNONCE"], "ZUSER": ["ZANALYTICSIDENTIFIER", "ZDOMAIN"],
                "ZCONVERSATION": ["ZDRAFTMESSAGENONCE", "ZNEEDSTOCALCULATEUNREADMESSAGES", "ZDOMAIN", "ZACCESSROLESTRINGSV2"],
                "ZMESSAGE": ["ZDECRYPTIONERRORCODE", "ZPARTICIPANTSREMOVEDREASON"],
            ],
            leftoverIndexes: true, joinTablesRenamedInPlace: ["Z_24TRUSTEDBYCLIENTS"]),
    ]

    @Test(arguments: CorpusStores.known + CorpusStores.translationCatalogStores)
    func createdSchemaEqualsTheRealStore(_ known: KnownStore) throws {
        try withTemporaryDirectory { folder in
            let path = Corpus.path(known.store)
            let real = try StoreSchema.read(at: path)
            let metadata = try StoreMetadata.read(at: path)
            let version = try #require(
                ModelReader().read(at: Corpus.path(known.model)).bundle?.version(named: known.version))
            let framework = FrameworkVersion(try #require(metadata.frameworkVersion))
            let created = folder.appendingPathComponent("created.sqlite").path
            try StoreCreator.create(at: created, version: version, framework: framework)
            let ours = try StoreSchema.read(at: created)

            let changes = Self.inPlaceChanges[known.testDescription] ?? InPlaceChanges()
            let unexplained = ours.differences(from: real).filter { !Self.explains(changes, $0, ours, real) }
            #expect(unexplained.map(\.description) == [], "\(known.store)")
            for table in real.tables where !table.sql.contains("\"") && table.appendedColumnNames.isEmpty {
                if let mine = ours.table(named: table.name), mine.columns == table.columns {
                    #expect(mine.sql == table.sql, "Core Data's DDL spelling")
                }
            }
            for (table, columns) in changes.appendedColumns {
                #expect(real.table(named: table)?.appendedColumnNames == columns, "the DDL of \(table) marks them")
            }

            let ourMetadata = try StoreMetadata.read(at: created)
            let coreDataKeys = { (plist: [String: Any]) in
                Set(plist.keys.filter { $0.hasPrefix("NS") || $0.hasPrefix("_NS") })
            }
            #expect(coreDataKeys(ourMetadata.plist) == coreDataKeys(metadata.plist), "metadata keys")
            #expect(ourMetadata.versionHashes == metadata.versionHashes)
            #expect(ourMetadata.versionIdentifiers == metadata.versionIdentifiers)
        }
    }

    /// Whether the declared in-place changes account for this difference.
    static func explains(_ changes: InPlaceChanges, _ difference: SchemaDifference, _ ours: StoreSchema, _ real: StoreSchema) -> Bool {
        switch difference {
        case .columnsDiffer(let table, let expected, let actual):
            if changes.joinTablesRenamedInPlace.contains(table) { return Set(expected) == Set(actual) }
            guard let appended = changes.appendedColumns[table] else { return false }
            let keep = { (columns: [String]) in columns.filter { !appended.contains(String($0.split(separator: " ")[0])) } }
            return keep(expected) == keep(actual)
        case .primaryKeyDiffers(let table, let expected, let actual):
            return changes.joinTablesRenamedInPlace.contains(table) && Set(expected) == Set(actual)
        case .extraIndex(let name):
            guard changes.leftoverIndexes, let index = real.index(named: name) else { return false }
            let sameColumns = { (other: StoreIndex) in
                changes.joinTablesRenamedInPlace.contains(index.table)
                    ? Set(columnList(other)) == Set(columnList(index)) : columnList(other) == columnList(index)
            }
            return ours.indexes.contains { $0.table == index.table && sameColumns($0) }
        case .entityNamesDiffer:
            let renamed = ours.entities.map { row in
                StoreEntityRow(number: row.number, name: changes.renamedEntityRows[row.name] ?? row.name, superNumber: row.superNumber)
            }
            return !changes.renamedEntityRows.isEmpty && renamed == real.entities
        default:
            return false
        }
    }

    /// The column list of an index, without its collation, which the older style leaves out.
    static func columnList(_ index: StoreIndex) -> [String] {
        guard let open = index.normalizedSQL.lastIndex(of: "(") else { return [] }
        return index.normalizedSQL[open...].trimmingCharacters(in: CharacterSet(charactersIn: "()"))
            .split(separator: ",").map { String($0.split(separator: " ")[0]) }
    }
}
