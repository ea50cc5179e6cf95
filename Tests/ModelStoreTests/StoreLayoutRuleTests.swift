import Foundation
import ModelSchema
@testable import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Core Data's layout rules one by one (Documentation/Stores.md): the join tables of every corpus
/// store with join tables, the hash order that names them, entity numbers in case-insensitive
/// name order, hidden inverse columns, and join-table indexes by build.
struct StoreLayoutRuleTests {
    // MARK: - Join tables, against every corpus store that has them

    static let storesWithJoinTables: [KnownStore] =
        CorpusStores.wireStores
        + CorpusStores.known.filter { $0.store.contains("EasyLife") || $0.store.contains("CoreDataStack") }
        + CorpusStores.translationCatalogStores

    /// Every join table of the store has, in the layout for the store's version and build, a
    /// join table of the same name over the same columns: which side names it and which
    /// suffix a clashing column gets are as Core Data chose.
    @Test(Corpus.required, arguments: storesWithJoinTables)
    func joinTablesAreNamedAsCoreDataNamedThem(_ known: KnownStore) throws {
        let path = Corpus.path(known.store)
        let real = try StoreSchema.read(at: path)
        let framework = FrameworkVersion(try #require(try StoreMetadata.read(at: path).frameworkVersion))
        let version = try #require(ModelReader().read(at: Corpus.path(known.model)).bundle?.version(named: known.version))
        let layout = StoreLayout(version, framework: framework)
        let realJoins = real.tables.filter { $0.name.hasPrefix("Z_") && $0.name.first(where: \.isNumber) != nil }
        #expect(!realJoins.isEmpty)
        let columns = { (table: StoreTable) in Set(table.columns.map(\.name)) }
        let ours = Dictionary(layout.joinTables.map { ($0.table.name, columns($0.table)) }, uniquingKeysWith: { a, _ in a })
        for table in realJoins {
            #expect(ours[table.name] == columns(table), "\(table.name)")
        }
        #expect(ours.count == realJoins.count)
    }

    // MARK: - The dictionary order

    /// Core Data's copy of the 10.4 dictionary sizes itself by its capacity table.
    @Test func bucketCountsFollowTheCapacityTable() {
        #expect(TigerDictionaryOrder.bucketCount(forKeys: 3) == 5)
        #expect(TigerDictionaryOrder.bucketCount(forKeys: 4) == 5)
        #expect(TigerDictionaryOrder.bucketCount(forKeys: 5) == 11)
        #expect(TigerDictionaryOrder.bucketCount(forKeys: 39) == 67)
        #expect(TigerDictionaryOrder.bucketCount(forKeys: 48) == 113)
    }

    /// Names longer than 23 units hash only their first 8 and last 16; shorter ones hash all.
    @Test func longNamesHashTheirEndsOnly() {
        let long = "needsToNotifyOtherUserAboutSessionReset"
        let changedMiddle = String(long.prefix(8)) + String(repeating: "x", count: long.count - 24) + String(long.suffix(16))
        #expect(changedMiddle.count == long.count && changedMiddle != long)
        #expect(TigerDictionaryOrder.hash(changedMiddle) == TigerDictionaryOrder.hash(long))
        #expect(TigerDictionaryOrder.hash("trustedByClientsXXXXXXX") != TigerDictionaryOrder.hash("trustedByClientsYYYYYYY"))
    }

    /// The order is the bucket order, whatever order the keys come in.
    @Test func orderDoesNotDependOnTheGivenOrderWithoutCollisions() {
        let keys = ["_ent", "_pk", "_opt"]
        #expect(TigerDictionaryOrder.ordered(keys) == TigerDictionaryOrder.ordered(keys.reversed()))
        #expect(Set(TigerDictionaryOrder.ordered(keys + keys)) == Set(keys))
    }

    /// Wire's `UserClient` has two pairs of many-to-many relationships to itself; the stores
    /// name each pair's table after the side whose key comes first in the dictionary's order.
    @Test(Corpus.required, arguments: CorpusStores.wireStores)
    func wiresUserClientKeysComeInTheOrderItsStoreShows(_ known: KnownStore) throws {
        let real = try StoreSchema.read(at: Corpus.path(known.store))
        let version = try #require(ModelReader().read(at: Corpus.path(known.model)).bundle?.version(named: known.version))
        let numbering = EntityNumbering(version)
        let userClient = try #require(numbering.entities.entity(named: "UserClient"))
        let number = try #require(numbering.numbers["UserClient"])
        let keys = JoinTableBuilder(numbering: numbering, framework: .current)
            .columnKeys(
                attributes: numbering.entities.attributes(of: userClient), relationships: numbering.entities.relationships(of: userClient))
        let order = TigerDictionaryOrder.ordered(keys)
        #expect(Set(order) == Set(keys) && order.count == keys.count)
        let pairs = [("trustedClients", "trustedByClients"), ("ignoredClients", "ignoredByClients")].filter { keys.contains($0.0) }
        // Wire 1.25 has neither pair yet.
        #expect(pairs.count == (known.version == "zmessaging" ? 0 : 2))
        for pair in pairs {
            let namedByFirst = real.table(named: "Z_\(number)\(pair.0.uppercased())") != nil
            let namedBySecond = real.table(named: "Z_\(number)\(pair.1.uppercased())") != nil
            #expect(namedByFirst != namedBySecond, "\(pair)")
            let first = try #require(order.firstIndex(of: pair.0))
            let second = try #require(order.firstIndex(of: pair.1))
            #expect((first < second) == namedByFirst, "\(pair)")
        }
    }

    // MARK: - Models built here

    static func version(_ entities: String) throws -> ModelVersion {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            \(entities)
            </model>
            """
        return try #require(ModelReader().readVersion(contents: Array(xml.utf8), name: "Test", path: "contents").0)
    }

    /// Entities are numbered in case-insensitive name order, roots and subentities alike.
    @Test func entityNumbersFollowCaseInsensitiveNameOrder() throws {
        let version = try Self.version(
            """
            <entity name="cherry" representedClassName="cherry" syncable="YES"/>
            <entity name="Banana" representedClassName="Banana" syncable="YES"/>
            <entity name="zeta" representedClassName="zeta" parentEntity="Banana" syncable="YES"/>
            <entity name="Alpha" representedClassName="Alpha" parentEntity="Banana" syncable="YES"/>
            <entity name="apple" representedClassName="apple" syncable="YES"/>
            """)
        let rows = StoreLayout(version).schema.entities.map { "\($0.number) \($0.name) \($0.superNumber)" }
        #expect(rows == ["1 apple 0", "2 Banana 0", "3 Alpha 2", "4 zeta 2", "5 cherry 0"])
    }

    /// A to-many relationship without an inverse is kept as a hidden foreign key in the
    /// destination's table, after its own foreign keys, with its own index.
    @Test func aToManyWithoutInverseGetsAHiddenColumn() throws {
        let version = try Self.version(
            """
            <entity name="Author" representedClassName="Author" syncable="YES">
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            </entity>
            <entity name="Book" representedClassName="Book" syncable="YES">
                <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            </entity>
            <entity name="Shelf" representedClassName="Shelf" syncable="YES">
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author"/>
            </entity>
            """)
        let layout = StoreLayout(version)
        let book = try #require(layout.schema.table(named: "ZBOOK"))
        #expect(book.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZPAGES", "ZAUTHOR", "Z3BOOKS", "ZTITLE"])
        #expect(book.column(named: "Z3BOOKS")?.type == "INTEGER")
        #expect(layout.schema.index(named: "ZBOOK_Z3BOOKS_INDEX")?.sql == "CREATE INDEX ZBOOK_Z3BOOKS_INDEX ON ZBOOK (Z3BOOKS)")
        #expect(layout.hiddenInverses == [HiddenInverseLayout(entity: "Shelf", relationship: "books", table: "ZBOOK", column: "Z3BOOKS")])
        // A to-one without an inverse is its own foreign key and adds nothing to the destination.
        #expect(layout.schema.table(named: "ZAUTHOR")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT"])
        #expect(layout.joinTables.isEmpty)
    }

    // MARK: - Join-table indexes by build

    /// Builds before 600 create no index on join tables; the 637 store of CoreDataStack has one.
    @Test(Corpus.required) func joinTablesAreIndexedFromBuild600() throws {
        let known = try #require(CorpusStores.known.first { $0.store.contains("CoreDataStack") })
        let real = try StoreSchema.read(at: Corpus.path(known.store))
        let version = try #require(ModelReader().read(at: Corpus.path(known.model)).bundle?.version(named: known.version))
        let realIndex = try #require(real.indexes.first { $0.table == "Z_1BOOKS" })
        #expect(StoreLayout(version, framework: FrameworkVersion(637)).schema.index(named: realIndex.name)?.sql == realIndex.sql)
        #expect(!StoreLayout(version, framework: FrameworkVersion(519)).schema.indexes.contains { $0.table == "Z_1BOOKS" })
        #expect(StoreLayout(version, framework: FrameworkVersion(519)).schema.table(named: "Z_1BOOKS") != nil)
    }
}
