import Foundation
import GRDB
import ModelExpression
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

@testable import ModelObjects

/// The store's SQL and the evaluator that merges unsaved changes give the same objects for the
/// same predicate: on the corpus models' fetch request templates, on predicates generated from
/// the values of corpus stores, and the check fails when one side is broken on purpose.
@Suite(Corpus.required)
struct PredicateEquivalenceTests {
    /// Stores with rows and relationships of each kind: to-one and inverse to-many with
    /// subentities (CoreDataPlus), a plain one-to-many (BookMigration), many-to-many join tables (wire).
    static let stores: [KnownStore] = [
        CorpusStores.known[1], CorpusStores.known[6],
        CorpusStores.wireStores.first { $0.store.hasSuffix("store2-101-0.wiredatabase") }!,
    ]

    @Test(arguments: stores)
    func generatedPredicatesAgree(_ known: KnownStore) throws {
        try withStore(known) { context in
            var (checked, nonTrivial) = (0, 0)
            for entity in context.persistentStoreCoordinator!.managedObjectModel.entities {
                let check = try EquivalenceCheck(context: context, entity: entity.name)
                guard !check.objects.isEmpty else { continue }
                for generated in PredicateGenerator(model: check.model, entity: entity, objects: check.objects).predicates() {
                    do {
                        let predicate = FetchPredicate(format: generated.format, argumentArray: generated.arguments)
                        let (store, memory) = try check.keys(store: predicate, memory: predicate.node)
                        #expect(store == memory, "\(entity.name): \(generated): store \(store.sorted()), evaluator \(memory.sorted())")
                        checked += 1
                        if !store.isEmpty && store.count < check.objects.count { nonTrivial += 1 }
                    } catch {
                        Issue.record("\(entity.name): \(generated): \(error)")
                    }
                }
            }
            #expect(checked > 100, "\(checked) predicates")
            #expect(nonTrivial * 2 > checked, "\(nonTrivial) of \(checked) predicates match some objects but not all")
        }
    }

    /// The comparison reports a difference when the evaluator is given a predicate with one
    /// operator or modifier changed (`<` for `<=`, `ALL` for `ANY`, a key for its negation).
    @Test func aBrokenSideIsReported() throws {
        try withStore(Self.stores[0]) { context in
            let check = try EquivalenceCheck(context: context, entity: "Car")
            let pairs: [(String, String)] = [
                ("maker == 'FIAT'", "maker != 'FIAT'"), ("numberPlate <= '159'", "numberPlate < '159'"),
                ("owner.firstName == 'Victoria'", "owner.firstName != 'Victoria'"), ("maker BEGINSWITH[c] 'f'", "maker BEGINSWITH 'f'"),
            ]
            for (correct, broken) in pairs {
                let (store, memory) = try check.keys(store: FetchPredicate(format: correct), memory: FetchPredicate(format: broken).node)
                #expect(store != memory, "\(correct) against \(broken) went unnoticed")
                #expect(try check.keys(store: FetchPredicate(format: correct), memory: FetchPredicate(format: correct).node).0 == store)
            }
            let people = try EquivalenceCheck(context: context, entity: "Person")
            let (store, memory) = try people.keys(store: FetchPredicate(format: "ANY cars.maker == 'FIAT'"), memory: FetchPredicate(format: "ALL cars.maker == 'FIAT'").node)
            #expect(store != memory)
        }
    }

    /// Sorting through a to-one with a collation gives the order the context sorts unsaved objects in.
    @Test func sortKeysThroughToOnesAgree() throws {
        try withStore(Self.stores[0]) { context in
            for comparison in [FetchSortDescriptor.Comparison.default, .caseInsensitive, .localized, .localizedStandard] {
                let request = FetchRequest<ManagedObject>(entityName: "Car")
                request.sortDescriptors = [
                    FetchSortDescriptor(key: "owner.lastName", ascending: false, comparison: comparison), FetchSortDescriptor(key: "model", comparison: comparison),
                ]
                let fetched = try context.fetch(request)
                let keys = request.sortDescriptors.map(ManagedObjectContext.sortKey)
                let evaluation = ObjectEvaluation(context)
                let values = try fetched.map { object in try keys.map { try evaluation.value(atPath: $0.keyPath, of: object) } }
                for index in fetched.indices.dropFirst() {
                    let order = zip(keys.indices, keys).lazy.map { SortKey.compare(values[index - 1][$0], values[index][$0], by: $1) }.first { $0 != .orderedSame }
                    #expect(order != .orderedDescending, "\(comparison): \(values[index - 1]) before \(values[index])")
                    if order == nil { #expect(fetched[index - 1].objectID.primaryKey! < fetched[index].objectID.primaryKey!) }
                }
                #expect(fetched.count == 125)
            }
        }
    }

    /// What SQL cannot answer as the evaluator would is refused with Core Data's generic error, naming the part.
    @Test func whatSQLCannotAnswerIsRefused() throws {
        try withStore(Self.stores[0]) { context in
            let refused: [(String, [Any], String)] = [
                ("firstName == 5", [], "an integer is not compared with a String attribute"),
                ("cars.maker == 'FIAT'", [], "the to-many 'cars' needs ANY, ALL, NONE or a collection operator"),
                ("firstName == lastName + 'x'", [], "the function 'add:to:'"),
                ("ANY firstName == 'a'", [], "ANY and ALL need a to-many key path"),
                ("cars.@sum.maker > 1", [], "@sum needs a numeric attribute"),
                ("id < %@", [UUID()], "UUID values have no order"),
                ("firstName IN[c] %@", [["a"]], "IN needs a list of values"),
                ("SUBQUERY(cars, $c, $c.maker == 'FIAT') == nil", [], "SUBQUERY is translated only as SUBQUERY(…).@count"),
            ]
            for (format, arguments, message) in refused {
                let request = FetchRequest<ManagedObject>(entityName: "Person")
                request.predicate = FetchPredicate(format: format, argumentArray: arguments)
                #expect(performing: { try context.fetch(request) }, throws: { error in
                    let error = error as NSError
                    return error.code == 134060 && error.localizedDescription.contains(message)
                })
            }
        }
    }

    /// The corpus models' fetch request templates run both ways on objects saved into a new store.
    @Test func fetchRequestTemplatesAgree() async throws {
        let bundlePath = "atomicbird__momcom/momcomTests/momcomTests.xcdatamodeld"
        let bundle = try #require(ModelReader().read(at: Corpus.path(bundlePath)).bundle)
        let templates = bundle.versions.flatMap(\.fetchRequests).filter { $0.predicateString != nil }
        #expect(templates.count >= 3)
        let container = try await ContextTestSupport.container(Corpus.path(bundlePath), in: nil)
        let context = container.viewContext
        try context.performAndWait {
            let model = context.persistentStoreCoordinator!.managedObjectModel
            // floatAttribute is bounded by -2.5 and 2.5, so the templates' `floatAttribute > 5` matches no valid object.
            for (flag, number) in [(true, 1.5), (true, -2.0), (false, 2.5), (true, 0.0)] {
                let object = ManagedObject(entity: model.entitiesByName["Entity"]!, insertInto: context)
                object.setValue(flag, forKey: "booleanAttribute")
                object.setValue(Float(number), forKey: "floatAttribute")
            }
            try context.save()
            for template in templates {
                let predicate = FetchPredicate(format: template.predicateString!)
                let (store, memory) = try EquivalenceCheck(context: context, entity: template.entityName).keys(store: predicate, memory: predicate.node)
                #expect(store == memory, "\(template.name): \(store.sorted()) \(memory.sorted())")
                let relaxed = FetchPredicate(format: template.predicateString!.replacingOccurrences(of: "> 5", with: "> 1"))
                let (some, evaluated) = try EquivalenceCheck(context: context, entity: template.entityName).keys(store: relaxed, memory: relaxed.node)
                #expect(some == evaluated && some.count == 1, "\(relaxed): \(some.sorted()) \(evaluated.sorted())")
            }
        }
    }

    /// Every fetch request template of every corpus model parses, translates and runs on an
    /// empty store of its version (only momcom's have rows to run on, above).
    @Test func everyCorpusTemplateTranslates() throws {
        var seen = Set<String>()
        for path in Corpus.modelPaths() {
            guard let bundle = ModelReader().read(at: Corpus.path(path)).bundle else { continue }
            for version in bundle.versions {
                for template in version.fetchRequests {
                    guard let text = template.predicateString, seen.insert("\(path) \(version.name) \(template.name)").inserted else { continue }
                    var fetch = StoreFetch(entity: template.entityName)
                    fetch.predicate = try PredicateParser.predicate(text)
                    let statement = try fetch.count(layout: StoreLayout(version), entities: EntityHierarchy(version))
                    let queue = try StoreCreator.createInMemory(version: version)
                    #expect(try queue.read { try Int.fetchOne($0, sql: statement.sql, arguments: statement.arguments) } == 0, "\(template.name)")
                }
            }
        }
        #expect(seen.count >= 4, "\(seen.sorted())")
    }

    /// Runs `body` on a private context over a copy of the store, opened read-only with Core
    /// Data's functions registered.
    private func withStore(_ known: KnownStore, _ body: (ManagedObjectContext) throws -> Void) throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(known.model)).bundle)
        let version = try #require(bundle.version(named: known.version))
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.path(known.store), into: folder)
            var configuration = CoreDataFunctions.registering(in: Configuration())
            configuration.readonly = true
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = PersistentStoreCoordinator(model: ManagedObjectModel(version), database: database)
            try context.performAndWait { try body(context) }
            try database.close()
        }
    }
}

/// One entity's objects, fetched both ways: the keys the store's SQL returns for a predicate,
/// and the keys of the objects the pending-changes evaluator (``ObjectEvaluation``) matches.
struct EquivalenceCheck {
    let context: ManagedObjectContext
    let entity: String
    let model: ManagedObjectModel
    /// Every object of the entity (subentities included), read through the context.
    let objects: [ManagedObject]

    init(context: ManagedObjectContext, entity: String) throws {
        self.context = context
        self.entity = entity
        model = context.persistentStoreCoordinator!.managedObjectModel
        objects = try context.fetch(FetchRequest<ManagedObject>(entityName: entity))
    }

    /// The keys the store returns for `store`, and those the evaluator matches for `memory`.
    func keys(store: FetchPredicate, memory: PredicateNode) throws -> (Set<Int64>, Set<Int64>) {
        let request = FetchRequest<ManagedObject>(entityName: entity)
        request.predicate = store
        let fetched = Set(try context.fetch(request).compactMap(\.objectID.primaryKey))
        let evaluation = ObjectEvaluation(context)
        let matched = Set(try objects.filter { try evaluation.matches($0, memory) }.compactMap(\.objectID.primaryKey))
        return (fetched, matched)
    }
}
