import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The validation pass of the migration manager (Core Data's `validateForInsert` on each
/// migrated object) for string lengths in UTF-16 units and patterns, date bounds, to-many
/// counts and uniqueness constraints: the dry run counts the failures, the real migration is
/// refused with `validationFailed` and leaves the store as it was. Every expected count comes
/// from the rows the test inserts.
@Suite struct MigrationValidationTests {
    typealias Support = MigrationTestSupport

    // MARK: - Generated model

    /// Item (with its subentity Gadget), Part and Tag; V2 adds the rules (and `extra`, so that
    /// the versions hash apart).
    static func contents(rules: Bool, pattern: String) -> String {
        func rule(_ text: String) -> String { rules ? " " + text : "" }
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Gadget" representedClassName="Gadget" parentEntity="Item" syncable="YES"/>
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="code" optional="YES" attributeType="String"\(rule(#"minValueString="2" maxValueString="4" regularExpressionString="\#(pattern)""#))/>
                    <attribute name="day" optional="YES" attributeType="Date" usesScalarValueType="NO"\(rule(#"minDateTimeInterval="0" maxDateTimeInterval="86400""#))/>
                    \(rules ? #"<attribute name="extra" optional="YES" attributeType="String"/>"# : "")
                    <attribute name="kind" optional="YES" attributeType="String"\(rule(#"regularExpressionString="A|AB""#))/>
                    <attribute name="label" optional="YES" attributeType="String"/>
                    <attribute name="note" optional="YES" attributeType="String"\(rule(#"maxValueString="3""#))/>
                    <relationship name="parts" optional="YES" toMany="YES"\(rule(#"minCount="2" maxCount="3""#)) deletionRule="Nullify" destinationEntity="Part" inverseName="item" inverseEntity="Part"/>
                    <relationship name="tags" \(rules ? #"minCount="1""# : #"optional="YES""#) toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                    \(rules ? #"<uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints>"# : "")
                </entity>
                <entity name="Part" representedClassName="Part" syncable="YES">
                    <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="parts" inverseEntity="Item"/>
                </entity>
                <entity name="Tag" representedClassName="Tag" syncable="YES">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
                </entity>
            </model>
            """
    }

    /// Writes the two-version bundle into `folder`; returns it read.
    static func generatedBundle(in folder: URL, pattern: String = "[A-Z]+[0-9]*") throws -> ModelBundle {
        let bundle = folder.appendingPathComponent("Rules.xcdatamodeld")
        for (name, rules) in [("V1", false), ("V2", true)] {
            let version = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(contents(rules: rules, pattern: pattern).utf8).write(to: version.appendingPathComponent("contents"))
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>V2.xcdatamodel</string></dict></plist>
            """
        try Data(current.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return try Support.bundle(bundle.path)
    }

    /// A copy mapping of every concrete entity both versions have, as Xcode generates one:
    /// attributes from `$source`, relationships through the source relationship's mappings.
    static func copyMapping(_ bundle: ModelBundle, from old: String, to new: String) throws -> MappingModel {
        let source = try #require(bundle.version(named: old)), destination = try #require(bundle.version(named: new))
        let (oldHashes, newHashes) = (VersionHasher(source).entityHashes(), VersionHasher(destination).entityHashes())
        let hierarchy = EntityHierarchy(destination), sourceHierarchy = EntityHierarchy(source)
        let mappings = destination.entities.filter { !$0.isAbstract && sourceHierarchy.entity(named: $0.name) != nil }.map { entity in
            let present = Set(sourceHierarchy.attributes(of: sourceHierarchy.entity(named: entity.name)!).map(\.name))
            return EntityMapping(
                name: "\(entity.name)To\(entity.name)", type: .copy, sourceEntityName: entity.name, destinationEntityName: entity.name,
                sourceEntityVersionHash: oldHashes[entity.name], destinationEntityVersionHash: newHashes[entity.name],
                sourceExpression: SourceExpression(entityName: entity.name),
                attributeMappings: hierarchy.attributes(of: entity).map {
                    PropertyMapping(name: $0.name, valueExpression: present.contains($0.name) ? "$source.\($0.name)" : nil)
                },
                relationshipMappings: hierarchy.relationships(of: entity).map {
                    PropertyMapping(
                        name: $0.name,
                        valueExpression: "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"\($0.name)\", $source.\($0.name))")
                })
        }
        return MappingModel(name: "\(old)To\(new)", path: "\(old)To\(new).xcmappingmodel", entityMappings: mappings)
    }

    // MARK: - Store rows

    /// Writes rows of `version` in its store layout, by entity and property name.
    struct Writer {
        let db: Database
        let version: ModelVersion
        var layout: StoreLayout { StoreLayout(version) }

        /// Inserts an instance of `entity` with primary key `key` (unique in its table).
        func insert(_ entity: String, _ key: Int, _ values: [String: (any DatabaseValueConvertible)?] = [:]) throws {
            let found = try #require(layout.entity(named: entity))
            var columns = try values.keys.map { try #require(found.columns[$0], "\(entity).\($0)") }
            var arguments: [(any DatabaseValueConvertible)?] = [key, found.number, 1]
            arguments += values.values
            // A to-one to an entity with subentities also stores the destination's Z_ENT, as Core Data writes it.
            for name in values.keys {
                guard let column = found.entityColumns[name], let relationship = EntityHierarchy(version).relationship(named: name, in: entity) else { continue }
                columns.append(column)
                arguments.append(try #require(layout.entity(named: relationship.destinationEntityName)).number)
            }
            let names = (["Z_PK", "Z_ENT", "Z_OPT"] + columns).joined(separator: ", ")
            try db.execute(
                sql: "INSERT INTO \(found.table) (\(names)) VALUES (\(Array(repeating: "?", count: columns.count + 3).joined(separator: ", ")))",
                arguments: StatementArguments(arguments))
        }

        /// Links item `item` and tag `tag` in the many-to-many join table.
        func tag(_ item: Int, _ tag: Int) throws {
            let join = try #require(layout.joinTables.first { $0.entity == "Item" || $0.inverseEntity == "Item" })
            let (itemColumn, tagColumn) = join.entity == "Item" ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
            try db.execute(sql: "INSERT INTO \(join.table.name) (\(itemColumn), \(tagColumn)) VALUES (?, ?)", arguments: [item, tag])
        }
    }

    /// A V1 store of the generated model filled by `fill`; one tag exists (key 1).
    static func store(_ bundle: ModelBundle, in folder: URL, fill: (Writer) throws -> Void) throws -> String {
        let path = folder.appendingPathComponent("Rules.sqlite").path
        let version = try #require(bundle.version(named: "V1"))
        try StoreCreator.create(at: path, version: version)
        try DatabaseQueue(path: path).write { db in
            let writer = Writer(db: db, version: version)
            try writer.insert("Tag", 1)
            try fill(writer)
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 100 WHERE Z_SUPER = 0")
        }
        return path
    }

    /// Runs the dry run, then the real migration; checks the real one is refused with
    /// `validationFailed` naming `message`, with `code` (Core Data's 1560 for several failures,
    /// the rule's own code for one), leaving the store's bytes as they were. Returns the dry
    /// run's failures by entity mapping.
    static func failures(
        _ bundle: ModelBundle, _ store: String, message: String, code: Int = 1560, from old: String = "V1", to new: String = "V2"
    ) throws -> [String: Int] {
        let mapping = try copyMapping(bundle, from: old, to: new)
        var options = MigrationManager.Options()
        options.dryRun = true
        let planned = try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store, options: options)
        #expect(planned.outcome == .planned)
        let before = try contents(store)
        #expect {
            try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store)
        } throws: { error in
            guard let error = error as? MigrationError else { return false }
            return error.errorClass == .validationFailed && error.code == code && error.message.contains(message)
        }
        #expect(try contents(store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: (store as NSString).deletingLastPathComponent).filter { $0.hasPrefix("Rules.sqlite") || $0.hasPrefix("momcom.sqlite") }.allSatisfy { !$0.contains(".modelc") }, "nothing left beside the store")
        return Dictionary(uniqueKeysWithValues: planned.entityMappings.map { ($0.name, $0.validationFailures) })
    }

    /// Every row of every table of the store at `path`, with the metadata's version hashes.
    static func contents(_ path: String) throws -> [String: [[DatabaseValue]]] {
        try DatabaseQueue(path: path, configuration: RetainedData.readOnly).read { db in
            var tables = [String: [[DatabaseValue]]]()
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { Array($0.databaseValues) }
            }
            return tables
        }
    }

    // MARK: - Strings

    /// NSString's length counts UTF-16 units: "😀😀" is 4 long (SQLite's length() says 2).
    @Test func stringLengthsCountUTF16Units() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Self.generatedBundle(in: folder)
            let store = try Self.store(bundle, in: folder) { rows in
                let notes: [String?] = ["abc", "é😀", "😀😀", "abcd", nil, "a"]  // too long: 😀😀, abcd
                let codes: [String?] = ["AB", "A", "ABCDE", "AB12", nil, "ABC"]  // too short: A; too long: ABCDE
                for (index, (note, code)) in zip(notes, codes).enumerated() {
                    try rows.insert("Item", index + 1, ["note": note, "code": code])
                    try rows.tag(index + 1, 1)
                }
            }
            let failures = try Self.failures(bundle, store, message: "length")
            #expect(failures["ItemToItem"] == 4)
        }
    }

    /// A string holding U+0000 is measured and matched whole: NSString's length counts the NUL
    /// as one UTF-16 unit, and MATCHES tests every character (SQLite's length() stops at it).
    @Test func aStringHoldingNULIsMeasuredAndMatchedWhole() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Self.generatedBundle(in: folder)
            let store = try Self.store(bundle, in: folder) { rows in
                // Too long (4 and 5 units, maximum 3): the first two notes; no match of `A|AB`: the third kind.
                let notes: [String?] = ["ab\u{0}c", "a\u{0}bcd", "\u{0}\u{0}\u{0}", "a\u{0}"]
                let kinds: [String?] = ["A", nil, "A\u{0}B", "AB"]
                for (index, (note, kind)) in zip(notes, kinds).enumerated() {
                    // Written as bytes then cast to text: GRDB would bind the text cut at its NUL.
                    try rows.insert("Item", index + 1, ["note": note.map { Data($0.utf8) }, "kind": kind.map { Data($0.utf8) }])
                    try rows.tag(index + 1, 1)
                }
                try rows.db.execute(sql: "UPDATE ZITEM SET ZNOTE = CAST(ZNOTE AS TEXT), ZKIND = CAST(ZKIND AS TEXT)")
            }
            let failures = try Self.failures(bundle, store, message: "3 migrated 'Item' values are not valid")
            #expect(failures["ItemToItem"] == 3)
        }
    }

    /// A pattern matches the whole string, as MATCHES does: `AB1x` fails `[A-Z]+[0-9]*`, `AB`
    /// matches `A|AB` through its second alternative.
    @Test func patternsMatchTheWholeString() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Self.generatedBundle(in: folder)
            let store = try Self.store(bundle, in: folder) { rows in
                let codes: [String?] = ["AB1", "AB1x", "ab", nil, "ZZ9"]  // fail: AB1x, ab
                let kinds: [String?] = ["A", "AB", "ABC", "B", nil]  // fail: ABC, B
                for (index, (code, kind)) in zip(codes, kinds).enumerated() {
                    try rows.insert("Item", index + 1, ["code": code, "kind": kind])
                    try rows.tag(index + 1, 1)
                }
            }
            let failures = try Self.failures(bundle, store, message: "does not match its pattern")
            #expect(failures["ItemToItem"] == 4)
        }
    }

    /// A pattern ICU cannot compile matches no value (Core Data raises an exception evaluating it).
    @Test func aPatternICUCannotCompileMatchesNothing() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Self.generatedBundle(in: folder, pattern: "[A-Z")
            let store = try Self.store(bundle, in: folder) { rows in
                for (index, code) in ["AB", nil, "[A-Z"].enumerated() {
                    try rows.insert("Item", index + 1, ["code": code])
                    try rows.tag(index + 1, 1)
                }
            }
            let failures = try Self.failures(bundle, store, message: "pattern ICU cannot compile")
            #expect(failures["ItemToItem"] == 2)
        }
    }

    // MARK: - Dates

    /// Dates are seconds since 2001-01-01 compared with `minDateTimeInterval`/`maxDateTimeInterval`.
    @Test func datesOutsideTheirBoundsFail() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Self.generatedBundle(in: folder)
            let store = try Self.store(bundle, in: folder) { rows in
                let days: [Double?] = [-5, 0, 50, 86400, 86400.5, nil, 1e9]  // fail: -5, 86400.5, 1e9
                for (index, day) in days.enumerated() {
                    try rows.insert("Item", index + 1, ["day": day])
                    try rows.tag(index + 1, 1)
                }
            }
            let failures = try Self.failures(bundle, store, message: "date")
            #expect(failures["ItemToItem"] == 3)
        }
    }

    // MARK: - To-many counts

    /// `parts` (optional, 2...3, through Part's foreign key) may be empty but not hold 1 or 4;
    /// `tags` (required, at least 1, through the join table) may not be empty.
    @Test func toManyCountsOutsideTheirBoundsFail() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Self.generatedBundle(in: folder)
            let store = try Self.store(bundle, in: folder) { rows in
                let parts = [0, 1, 2, 3, 4]  // fail: 1, 4
                var key = 0
                for (index, count) in parts.enumerated() {
                    try rows.insert("Item", index + 1)
                    try rows.tag(index + 1, 1)
                    for _ in 0..<count {
                        key += 1
                        try rows.insert("Part", key, ["item": index + 1])
                    }
                }
                try rows.insert("Item", 6)  // no tag: fails
                try rows.insert("Gadget", 7)  // a subentity's own instances are its mapping's
            }
            // The real run stops at the first mapping that fails, GadgetToGadget: one instance,
            // so the code is the rule's own, NSValidationRelationshipLacksMinimumCountError.
            let failures = try Self.failures(bundle, store, message: "objects", code: 1580)
            #expect(failures["ItemToItem"] == 3)
            #expect(failures["GadgetToGadget"] == 1)
        }
    }

    // MARK: - Uniqueness

    /// `label` is unique among Items and their Gadgets. The destination's unique index (Core
    /// Data's layout) stops the real migration in its first pass with
    /// NSMigrationConstraintViolationError (134111), the store's rows unchanged. The dry run should
    /// count an Item and a Gadget sharing "x" (NULLs never collide), but it stops the same way
    /// until the destination's unique indexes are created after validation.
    @Test func uniquenessConstraintsStopTheMigration() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Self.generatedBundle(in: folder)
            let store = try Self.store(bundle, in: folder) { rows in
                let items: [(String, String?)] = [("Item", "x"), ("Gadget", "x"), ("Item", "y"), ("Item", nil), ("Gadget", nil)]
                for (index, (entity, label)) in items.enumerated() {
                    try rows.insert(entity, index + 1, ["label": label])
                    try rows.tag(index + 1, 1)
                }
            }
            let mapping = try Self.copyMapping(bundle, from: "V1", to: "V2")
            let before = try Self.contents(store)
            #expect {
                try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store)
            } throws: { error in
                guard let error = error as? MigrationError else { return false }
                return error.errorClass == .constraintViolation && error.code == 134111 && error.message.contains("ZLABEL")
            }
            #expect(try Self.contents(store) == before)
            // The dry run counts them instead (its new store has no unique indexes).
            var options = MigrationManager.Options()
            options.dryRun = true
            let planned = try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store, options: options)
            let failures = Dictionary(uniqueKeysWithValues: planned.entityMappings.map { ($0.name, $0.validationFailures) })
            #expect(failures["ItemToItem"] == 1)
            #expect(failures["GadgetToGadget"] == 1)
            #expect(try Self.contents(store) == before)
        }
    }

    // MARK: - A real model

    /// atomicbird/momcom's test model: `Entity.dateAttribute` within 284000400...602395200 and the
    /// optional `otherEntities` within 1...9, migrated from `momcTests` to `momcTests 2`.
    @Test(Corpus.required) func momcomsDateBoundsAndToManyCountsAreChecked() throws {
        let bundle = try Support.bundle(Corpus.path("atomicbird__momcom/momcomTests/momcomTests.xcdatamodeld"))
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("momcom.sqlite").path
            let version = try #require(bundle.version(named: "momcTests"))
            try StoreCreator.create(at: path, version: version)
            try DatabaseQueue(path: path).write { db in
                let rows = Writer(db: db, version: version)
                let entities: [(Double?, Int)] = [(1e8, 0), (7e8, 1), (3e8, 10), (nil, 5), (284000400, 9)]  // fail: too soon, too late, 10 > 9
                var key = 0
                for (index, (date, others)) in entities.enumerated() {
                    try rows.insert("Entity", index + 1, ["dateAttribute": date])
                    for _ in 0..<others {
                        key += 1
                        try rows.insert("OtherEntity", key, ["mainEntity": index + 1])
                    }
                }
            }
            let failures = try Self.failures(bundle, path, message: "dateAttribute", from: "momcTests", to: "momcTests 2")
            #expect(failures["EntityToEntity"] == 3)
            #expect(failures["OtherEntityToOtherEntity"] == 0)
        }
    }
}
