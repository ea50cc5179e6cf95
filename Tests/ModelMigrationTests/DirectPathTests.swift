import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The path Core Data takes: one direct step from the store's version to the destination,
/// whatever the versions' names; stages only when asked; identity matching; what only rows
/// decide decided on the rows; tables untouched when nothing in them changes.
struct DirectPathTests {
    static func model(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift">
        \(entities)
        </model>
        """
    }

    /// A bundle of `versions` (name, entities), the last one current, and a store of the first.
    func setUp(_ versions: [(String, String)], in folder: URL, rows: [String] = []) throws -> (ModelBundle, String) {
        let root = folder.appendingPathComponent("M.xcdatamodeld")
        for (name, entities) in versions {
            try writeFile("\(name).xcdatamodel/contents", Self.model(entities), in: root)
        }
        let current = versions[versions.count - 1].0
        try writeFile(".xccurrentversion", """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(current).xcdatamodel</string></dict></plist>
            """, in: root)
        let bundle = try MigrationTestSupport.bundle(root.path)
        let store = folder.appendingPathComponent("S.sqlite").path
        try StoreCreator.create(at: store, version: try #require(bundle.version(named: versions[0].0)), journalMode: .delete)
        try DatabaseQueue(path: store).write { db in
            for sql in rows { try db.execute(sql: sql) }
        }
        return (bundle, store)
    }

    func migrate(_ store: String, _ bundle: ModelBundle, dryRun: Bool = false, through: [String] = []) throws -> Migrator.Result {
        var options = Migrator.Options()
        options.makesBackup = false
        options.allowsDataLoss = true
        options.dryRun = dryRun
        options.through = through
        return try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
    }

    static let item = #"<entity name="Item" representedClassName="Item" syncable="YES">"#

    @Test func oneDirectStepWhateverTheVersionsNames() throws {
        try withTemporaryDirectory { folder in
            // The store's version sorts after the current one, and a version lies between.
            let (bundle, store) = try setUp(
                [
                    ("Z old", Self.item + #"<attribute name="name" optional="YES" attributeType="String"/></entity>"#),
                    ("M middle", Self.item + #"<attribute name="name" optional="YES" attributeType="String"/><attribute name="x" optional="YES" attributeType="String"/></entity>"#),
                    ("A new", Self.item + #"<attribute name="name" optional="YES" attributeType="String"/><attribute name="size" optional="YES" attributeType="Integer 32" defaultValueString="7" usesScalarValueType="YES"/></entity>"#),
                ], in: folder, rows: ["INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'a'), (2, 1, 1, NULL)"])
            let plan = try migrate(store, bundle, dryRun: true)
            #expect(plan.outcome == .planned)
            #expect(plan.steps.map { "\($0.source) → \($0.destination)" } == ["Z old → A new"])
            #expect(plan.steps[0].rewrittenTables.isEmpty, "an added column with a default changes the table in place")
            #expect(plan.steps[0].rowsTouched == 2, "the two rows get the default")
            let done = try migrate(store, bundle)
            #expect(done.outcome == .migrated)
            #expect(done.steps.map(\.rowsTouched) == plan.steps.map(\.rowsTouched))
            let sizes = try DatabaseQueue(path: store).read { try Int.fetchAll($0, sql: "SELECT ZSIZE FROM ZITEM ORDER BY Z_PK") }
            #expect(sizes == [7, 7])
            try MigrationTestSupport.expectDestination(store, is: try #require(bundle.version(named: "A new")), framework: .current, in: folder)
        }
    }

    @Test func aQuotedDefaultIsAValueNotAColumn() throws {
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp(
                [
                    ("V1", Self.item + #"<attribute name="name" optional="YES" attributeType="String"/></entity>"#),
                    ("V2", Self.item + #"<attribute name="label" optional="YES" attributeType="String" defaultValueString="'ZNAME'"/></entity>"#),
                ], in: folder, rows: ["INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'a'), (2, 1, 1, 'b'), (3, 1, 1, NULL)"])
            let plan = try migrate(store, bundle, dryRun: true)
            #expect(plan.steps.first?.dropped == [DroppedValues(entity: "Item", property: "name", count: 2)])
            let done = try migrate(store, bundle)
            #expect(done.steps.first?.dropped == plan.steps.first?.dropped)
            let labels = try DatabaseQueue(path: store).read { try String.fetchAll($0, sql: "SELECT ZLABEL FROM ZITEM") }
            #expect(labels == ["'ZNAME'", "'ZNAME'", "'ZNAME'"])
        }
    }

    /// An Owner whose to-one points into a hierarchy (so its table has an entity-number
    /// column): adding an attribute to Owner changes no entity number, so neither table is rebuilt.
    @Test func aTableWhoseRowsDoNotChangeIsNotRebuilt() throws {
        let animals = """
            <entity name="Animal" representedClassName="Animal" syncable="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Dog" representedClassName="Dog" parentEntity="Animal" syncable="YES"><attribute name="breed" optional="YES" attributeType="String"/></entity>
            """
        func owner(_ extra: String) -> String {
            animals + #"<entity name="Owner" representedClassName="Owner" syncable="YES">"# + extra
                + #"<relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Animal"/></entity>"#
        }
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp(
                [("V1", owner("")), ("V2", owner(#"<attribute name="note" optional="YES" attributeType="String"/>"#))], in: folder,
                rows: [
                    "INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZNAME, ZBREED) VALUES (1, 1, 1, 'cat', NULL), (2, 2, 1, 'rex', 'lab')",
                    "INSERT INTO ZOWNER (Z_PK, Z_ENT, Z_OPT, ZPET, Z1_PET) VALUES (1, 3, 1, 2, 2)",
                ])
            let plan = try migrate(store, bundle, dryRun: true)
            let step = try #require(plan.steps.first)
            #expect(step.rewrittenTables.isEmpty)
            #expect(step.rowsTouched == 0, "an added optional column touches no row")
            #expect(!step.statements.contains { $0.sql.contains("CASE") })
            #expect(!step.statements.contains { $0.sql.contains("ZANIMAL") && !$0.sql.hasPrefix("INSERT INTO Z_PRIMARYKEY") && !$0.sql.contains("Z_PRIMARYKEY") })
            _ = try migrate(store, bundle)
            try MigrationTestSupport.expectDestination(store, is: bundle.versions[1], framework: .current, in: folder)
        }
    }

    @Test func aRequiredValueIsImpossibleOnlyWhereRowsLackIt() throws {
        let v1 = Self.item + #"<attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let v2 = Self.item + #"<attribute name="name" attributeType="String"/><attribute name="rank" attributeType="Integer 32" usesScalarValueType="YES"/></entity>"#
        for (rows, expected) in [
            ([String](), Migrator.Outcome.planned),
            (["INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, NULL)"], .impossible),
        ] {
            try withTemporaryDirectory { folder in
                let (bundle, store) = try setUp([("V1", v1), ("V2", v2)], in: folder, rows: rows)
                let plan = try migrate(store, bundle, dryRun: true)
                #expect(plan.outcome == expected, "\(rows.count) rows")
                let errors = plan.steps.flatMap(\.mapping.diagnostics).filter { $0.severity == .error }.map(\.code)
                #expect(errors == (expected == .impossible ? ["M202", "M202"] : []))
            }
        }
    }

    @Test func entitiesAndPropertiesMatchByTheSourcesOwnRenamingIdentifier() throws {
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp(
                [
                    ("V1", #"<entity name="Client" representedClassName="Client" elementID="Customer" syncable="YES"><attribute name="fullName" optional="YES" attributeType="String" elementID="name"/></entity>"#),
                    ("V2", #"<entity name="Buyer" representedClassName="Buyer" elementID="Customer" syncable="YES"><attribute name="title" optional="YES" attributeType="String" elementID="name"/></entity>"#),
                ], in: folder, rows: ["INSERT INTO ZCLIENT (Z_PK, Z_ENT, Z_OPT, ZFULLNAME) VALUES (1, 1, 1, 'Ada')"])
            let mapping = MappingInference.infer(from: bundle.versions[0], to: bundle.versions[1])
            #expect(mapping.entities.map(\.kind) == [.transform])
            #expect(mapping.mapping(forDestination: "Buyer")?.properties.map(\.source) == ["fullName"])
            #expect(!mapping.dropsData)
            let done = try migrate(store, bundle)
            #expect(done.risk == .safe)
            let titles = try DatabaseQueue(path: store).read { try String.fetchAll($0, sql: "SELECT ZTITLE FROM ZBUYER") }
            #expect(titles == ["Ada"])
        }
    }

    @Test func aRetargetedRelationshipMapsByName() throws {
        let animals = """
            <entity name="Animal" representedClassName="Animal" syncable="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Dog" representedClassName="Dog" parentEntity="Animal" syncable="YES"/>
            """
        func owner(_ target: String) -> String {
            animals + #"<entity name="Owner" representedClassName="Owner" syncable="YES"><relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="\#(target)"/></entity>"#
        }
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp(
                [("V1", owner("Animal")), ("V2", owner("Dog"))], in: folder,
                rows: [
                    "INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 2, 1, 'rex')",
                    "INSERT INTO ZOWNER (Z_PK, Z_ENT, Z_OPT, ZPET, Z1_PET) VALUES (1, 3, 1, 1, 2)",
                ])
            let mapping = MappingInference.infer(from: bundle.versions[0], to: bundle.versions[1])
            #expect(mapping.isPossible)
            let done = try migrate(store, bundle)
            #expect(done.outcome == .migrated)
            let pet = try DatabaseQueue(path: store).read { try Int.fetchOne($0, sql: "SELECT ZPET FROM ZOWNER") }
            #expect(pet == 1)
            try MigrationTestSupport.expectDestination(store, is: bundle.versions[1], framework: .current, in: folder)
        }
    }

    /// Two many-to-many relationships swap names (each renamed to the other's, with renaming
    /// identifiers): each join table's name is taken by the other's links, so both are moved aside.
    @Test func joinTablesWhoseNamesAreTakenAreMovedAsideFirst() throws {
        func post(_ a: String, _ b: String) -> String {
            """
            <entity name="Post" representedClassName="Post" syncable="YES">
                <relationship name="\(a)" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="\(a)Of" inverseEntity="Tag" \(a == "a" ? "" : #"elementID="a""#)/>
                <relationship name="\(b)" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="\(b)Of" inverseEntity="Tag" \(b == "b" ? "" : #"elementID="b""#)/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <relationship name="\(a)Of" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="\(a)" inverseEntity="Post" \(a == "a" ? "" : #"elementID="aOf""#)/>
                <relationship name="\(b)Of" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="\(b)" inverseEntity="Post" \(b == "b" ? "" : #"elementID="bOf""#)/>
            </entity>
            """
        }
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp([("V1", post("a", "b")), ("V2", post("b", "a"))], in: folder)
            let before = StoreLayout(bundle.versions[0])
            let joins = Dictionary(uniqueKeysWithValues: before.joinTables.map { ($0.relationship, $0) })
            try DatabaseQueue(path: store).write { db in
                try db.execute(sql: "INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT) VALUES (1, 1, 1)")
                try db.execute(sql: "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT) VALUES (1, 2, 1), (2, 2, 1)")
                for (relationship, tag) in [("a", 1), ("b", 2)] {
                    guard let join = joins[relationship] ?? joins[relationship + "Of"] else { continue }
                    let (post, other) = join.entity == "Post" ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
                    try db.execute(sql: "INSERT INTO \(join.table.name) (\(post), \(other)) VALUES (1, \(tag))")
                }
            }
            let plan = try migrate(store, bundle, dryRun: true)
            #expect(plan.outcome == .planned)
            let done = try migrate(store, bundle)
            #expect(done.outcome == .migrated)
            #expect(done.steps.first?.dropped.allSatisfy { $0.count == 0 } == true)
            try MigrationTestSupport.expectDestination(store, is: bundle.versions[1], framework: .current, in: folder)
            let after = StoreLayout(bundle.versions[1])
            for (relationship, tag) in [("b", 1), ("a", 2)] {
                let join = try #require(after.joinTables.first { $0.relationship == relationship || $0.relationship == relationship + "Of" })
                let other = join.entity == "Post" ? join.destinationColumn : join.sourceColumn
                let tags = try DatabaseQueue(path: store).read { try Int.fetchAll($0, sql: "SELECT \(other) FROM \(join.table.name)") }
                #expect(tags == [tag], "links of the relationship now named '\(relationship)'")
            }
        }
    }

    /// A new entity between Post and Tag renumbers Tag: the join table keeps its name
    /// (`Z_1TAGS`, named by Post) but its Tag column changes, so the old one is moved aside.
    @Test func aJoinTableThatKeepsItsNameButChangesItsColumnsIsRebuilt() throws {
        func model(_ extra: String) -> String {
            #"<entity name="Post" representedClassName="Post" syncable="YES"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="posts" inverseEntity="Tag"/></entity>"#
                + extra
                + #"<entity name="Tag" representedClassName="Tag" syncable="YES"><relationship name="posts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="tags" inverseEntity="Post"/></entity>"#
        }
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp([("V1", model("")), ("V2", model(#"<entity name="Quote" representedClassName="Quote" syncable="YES"/>"#))], in: folder)
            let before = try #require(StoreLayout(bundle.versions[0]).joinTables.first)
            let after = try #require(StoreLayout(bundle.versions[1]).joinTables.first)
            #expect(before.table.name == after.table.name)
            #expect(before.table.columns.map(\.name) != after.table.columns.map(\.name))
            try DatabaseQueue(path: store).write { db in
                try db.execute(sql: "INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT) VALUES (1, 1, 1), (2, 1, 1)")
                try db.execute(sql: "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT) VALUES (1, 2, 1)")
                try db.execute(sql: "INSERT INTO \(before.table.name) (\(before.sourceColumn), \(before.destinationColumn)) VALUES (1, 1), (2, 1)")
            }
            let plan = try migrate(store, bundle, dryRun: true)
            let done = try migrate(store, bundle)
            #expect(done.outcome == .migrated)
            #expect(done.steps.map(\.rowsTouched) == plan.steps.map(\.rowsTouched))
            #expect(done.steps.first?.rewrittenTables.contains(after.table.name) == true)
            let links = try DatabaseQueue(path: store).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(after.table.name)") }
            #expect(links == 2)
            try MigrationTestSupport.expectDestination(store, is: bundle.versions[1], framework: .current, in: folder)
        }
    }

    /// A type change is impossible in one step, but the bundle's middle version removes the
    /// attribute and its last one adds it back with the new type: the plan says so, and the
    /// stages it proposes run.
    @Test func whenOnlyStagesWorkThePlanSaysWhich() throws {
        try withTemporaryDirectory { folder in
            let (bundle, store) = try setUp(
                [
                    ("V1", Self.item + #"<attribute name="code" optional="YES" attributeType="String"/></entity>"#),
                    ("V2", Self.item + #"<attribute name="kept" optional="YES" attributeType="String"/></entity>"#),
                    ("V3", Self.item + #"<attribute name="code" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/><attribute name="kept" optional="YES" attributeType="String"/></entity>"#),
                ], in: folder, rows: ["INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZCODE) VALUES (1, 1, 1, 'x')"])
            let direct = try migrate(store, bundle, dryRun: true)
            #expect(direct.outcome == .impossible)
            #expect(direct.steps.flatMap(\.mapping.diagnostics).map(\.code).contains("M201"))
            #expect(direct.suggestedThrough == ["V2"])
            let staged = try migrate(store, bundle, through: ["V2"])
            #expect(staged.outcome == .migrated)
            #expect(staged.steps.map(\.destination) == ["V2", "V3"])
            try MigrationTestSupport.expectDestination(store, is: bundle.versions[2], framework: .current, in: folder)
        }
    }
}

/// Defaults written into rows are parsed as the compiled model parses them (one parser,
/// `StoredDefault` over ModelArchive's `AttributeValues`).
struct StoredDefaultMigrationTests {
    @Test func aDateWrittenAsTextAndAnIntegerWrittenYESFillRowsAsTheCompiledModelWould() throws {
        try withTemporaryDirectory { folder in
            let (bundle, store) = try DirectPathTests().setUp(
                [
                    ("V1", DirectPathTests.item + #"<attribute name="name" optional="YES" attributeType="String"/></entity>"#),
                    ("V2", DirectPathTests.item + #"<attribute name="name" optional="YES" attributeType="String"/>"#
                        + #"<attribute name="since" optional="YES" attributeType="Date" defaultValueString="2013-04-23 12:00:00 +0000" usesScalarValueType="NO"/>"#
                        + #"<attribute name="count" optional="YES" attributeType="Integer 16" defaultValueString="YES" usesScalarValueType="YES"/></entity>"#),
                ], in: folder, rows: ["INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'a')"])
            _ = try DirectPathTests().migrate(store, bundle)
            let row = try #require(try DatabaseQueue(path: store).read { try Row.fetchOne($0, sql: "SELECT ZSINCE, ZCOUNT FROM ZITEM") })
            // 2013-04-23 12:00:00 UTC is 388,411,200 s after 2001-01-01; NSString.integerValue("YES") is 0.
            #expect(row["ZSINCE"] as Double? == 388_411_200)
            #expect(row["ZCOUNT"] as Int? == 0)
        }
    }
}
