import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Relationships that change cardinality: their links move between a foreign key and a join
/// table, and nothing but the extra links of a to-many that becomes to-one is lost.
struct RelationshipMigrationTests {
    static func model(orders: String, customer: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift">
            <entity name="Customer" representedClassName="Customer" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="orders" optional="YES" \(orders) deletionRule="Nullify" destinationEntity="Order" inverseName="customer" inverseEntity="Order"/>
            </entity>
            <entity name="Order" representedClassName="Order" syncable="YES">
                <attribute name="number" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <relationship name="customer" optional="YES" \(customer) deletionRule="Nullify" destinationEntity="Customer" inverseName="orders" inverseEntity="Customer"/>
            </entity>
        </model>
        """
    }

    static let toMany = #"toMany="YES""#
    static let toOne = #"maxCount="1""#

    /// A two-version bundle (`Shop`, one-to-many, then `Shop 2`) and a store of `Shop` with six
    /// orders of three customers, one order without a customer.
    func setUp(in folder: URL, next: String) throws -> (bundle: ModelBundle, store: String) {
        let root = folder.appendingPathComponent("Shop.xcdatamodeld")
        try writeFile("Shop.xcdatamodel/contents", Self.model(orders: Self.toMany, customer: Self.toOne), in: root)
        try writeFile("Shop 2.xcdatamodel/contents", next, in: root)
        let bundle = try MigrationTestSupport.bundle(root.path)
        let store = folder.appendingPathComponent("Shop.sqlite").path
        try StoreCreator.create(at: store, version: bundle.versions[0], journalMode: .delete)
        try DatabaseQueue(path: store).write { db in
            for customer in 1...3 {
                try db.execute(sql: "INSERT INTO ZCUSTOMER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)", arguments: [customer, "customer \(customer)"])
            }
            for order in 1...6 {
                let customer: Int? = order == 6 ? nil : order % 3 + 1
                try db.execute(
                    sql: "INSERT INTO ZORDER (Z_PK, Z_ENT, Z_OPT, ZNUMBER, ZCUSTOMER) VALUES (?, 2, 1, ?, ?)", arguments: [order, 100 + order, customer])
            }
        }
        return (bundle, store)
    }

    @Test func aToOneThatBecomesToManyMovesItsLinksIntoAJoinTable() throws {
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp(in: folder, next: Self.model(orders: Self.toMany, customer: Self.toMany))
            var options = Migrator.Options()
            options.makesBackup = false
            let result = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(result.outcome == .migrated)
            #expect(result.risk == .safe)
            let join = try #require(StoreLayout(bundle.versions[1]).joinTables.first)
            let links = try DatabaseQueue(path: store).read { db in
                try Row.fetchAll(db, sql: "SELECT \(join.sourceColumn) AS customer, \(join.destinationColumn) AS ord FROM \(join.table.name) ORDER BY 2")
                    .map { [$0["customer"] as Int, $0["ord"] as Int] }
            }
            #expect(links == [[2, 1], [3, 2], [1, 3], [2, 4], [3, 5]])
            try MigrationTestSupport.expectDestination(store, is: bundle.versions[1], framework: .current, in: folder)
        }
    }

    @Test func aToManyThatBecomesToOneKeepsOneLinkFromTheOtherSide() throws {
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp(in: folder, next: Self.model(orders: Self.toOne, customer: Self.toOne))
            let mapping = MappingInference.infer(from: bundle.versions[0], to: bundle.versions[1])
            #expect(mapping.dropsData, "a to-many that becomes to-one can lose links")
            var options = Migrator.Options()
            options.makesBackup = false
            options.allowsDataLoss = true
            let result = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(result.outcome == .migrated)
            // Customers 2 and 3 have two orders each: one link of each is dropped.
            #expect(result.steps.first?.dropped.filter { $0.count > 0 } == [DroppedValues(entity: "Customer", property: "orders", count: 2)])
            let (customers, orders) = try DatabaseQueue(path: store).read { db in
                (
                    try Row.fetchAll(db, sql: "SELECT Z_PK, ZORDERS FROM ZCUSTOMER ORDER BY Z_PK").map { [$0[0] as Int, $0[1] as Int] },
                    try Row.fetchAll(db, sql: "SELECT Z_PK, ZCUSTOMER FROM ZORDER ORDER BY Z_PK").map { [$0[0] as Int, ($0[1] as Int?) ?? 0] }
                )
            }
            #expect(customers == [[1, 3], [2, 1], [3, 2]])
            #expect(orders == [[1, 2], [2, 3], [3, 1], [4, 2], [5, 3], [6, 0]])
            try MigrationTestSupport.expectDestination(store, is: bundle.versions[1], framework: .current, in: folder)
        }
    }
}
