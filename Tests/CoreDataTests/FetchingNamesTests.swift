import CoreData
import Testing

/// Fetching with Core Data's names: predicates made without `try`, compound predicates, sort
/// descriptors by key path, and the class methods of managed object classes.
@MainActor
struct FetchingNamesTests {
    /// The model is compiled where the container looks for it before any test.
    init() throws {
        try #require(NotesModel.isInstalled)
    }

    /// A view context of a new in-memory store holding three notes.
    static func context() throws -> NSManagedObjectContext {
        let context = PersistenceController(inMemory: true).container.viewContext
        for (title, body) in [("b", "two"), ("a", "one"), ("c", "three")] {
            let note = Note(context: context)
            note.title = title
            note.body = body
        }
        try context.save()
        return context
    }

    /// `NSPredicate(format:)` does not throw (Foundation's NSPredicate.h declares
    /// `predicateWithFormat:` without an error), and fetches with its arguments.
    @Test func aPredicateIsMadeWithoutTry() throws {
        let context = try Self.context()
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.predicate = NSPredicate(format: "title == %@ OR body == %@", "a", "three")
        #expect(try context.fetch(request).compactMap(\.title).sorted() == ["a", "c"])
    }

    /// A format that does not parse is an error of the fetch that uses it, with the offset
    /// (Apple's raises NSInvalidArgumentException "Unable to parse the format string" when the
    /// predicate is made; Swift cannot catch that, so it is thrown where it can be), and of
    /// `checked()` at once.
    @Test func aBadFormatIsThrownByTheFetchThatUsesIt() throws {
        let context = try Self.context()
        let predicate = NSPredicate(format: "title ==")
        #expect(predicate.formatError != nil)
        #expect(throws: (any Error).self) { try predicate.checked() }
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.predicate = predicate
        #expect(performing: { try context.fetch(request) }, throws: { "\($0)".contains("offset") })
        #expect(performing: { try context.count(for: request) }, throws: { "\($0)".contains("offset") })
    }

    /// Compound predicates join as NSCompoundPredicate documents: "An AND predicate with no
    /// subpredicates evaluates to TRUE", "An OR predicate with no subpredicates evaluates to FALSE".
    @Test func compoundPredicatesJoinTheirSubpredicates() throws {
        let context = try Self.context()
        func titles(_ predicate: NSPredicate) throws -> [String] {
            let request: NSFetchRequest<Note> = Note.fetchRequest()
            request.predicate = predicate
            return try context.fetch(request).compactMap(\.title).sorted()
        }
        let a = NSPredicate(format: "title == %@", "a")
        let one = NSPredicate(format: "body == %@", "one")
        let c = NSPredicate(format: "title == %@", argumentArray: ["c"])
        #expect(try titles(NSCompoundPredicate(andPredicateWithSubpredicates: [a, one])) == ["a"])
        #expect(try titles(NSCompoundPredicate(orPredicateWithSubpredicates: [a, c])) == ["a", "c"])
        #expect(try titles(NSCompoundPredicate(notPredicateWithSubpredicate: a)) == ["b", "c"])
        #expect(try titles(NSCompoundPredicate(type: .or, subpredicates: [c, NSPredicate(value: false)])) == ["c"])
        #expect(try titles(NSCompoundPredicate(andPredicateWithSubpredicates: [])) == ["a", "b", "c"])
        #expect(try titles(NSCompoundPredicate(orPredicateWithSubpredicates: [])) == [])
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: [a, NSPredicate(format: "(")]).formatError != nil)
    }

    /// `NSSortDescriptor(keyPath:ascending:)` sorts by the property the key path names
    /// (NSSortDescriptor.h: `sortDescriptorWithKeyPath` uses the key path's string), and its key
    /// is the property's name.
    @Test func aSortDescriptorByKeyPathSortsByItsProperty() throws {
        let context = try Self.context()
        let descriptor = NSSortDescriptor(keyPath: \Note.title, ascending: false)
        #expect(descriptor.key == "title")
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.sortDescriptors = [descriptor, NSSortDescriptor(key: "body", ascending: true)]
        #expect(try context.fetch(request).compactMap(\.title) == ["c", "b", "a"])
    }

    /// A key path of several components is not supported (documented in PortingFromCoreData.md):
    /// it never traps, and the fetch using it fails with its key path in the message.
    @Test func aKeyPathOfSeveralComponentsFailsTheFetch() throws {
        let context = try Self.context()
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(keyPath: \Note.title?.count, ascending: true)]
        #expect(performing: { try context.fetch(request) }, throws: { "\($0)".contains("key path") })
    }

    /// CoreDataPlus `NSManagedObjectContextUtils_Tests.test_DeleteManagedObjects`, run on Apple
    /// platforms: `Person()` makes an object with no context (Core Data logs "Failed to call
    /// designated initializer"), which can then be inserted and saved.
    @Test func aPlainInitializerMakesAnObjectWithoutAContext() throws {
        let context = try Self.context()
        let note = Note()
        #expect(note.managedObjectContext == nil && note.entity.name == "Note")
        note.title = "later"
        context.insert(note)
        try context.save()
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.predicate = NSPredicate(format: "title == %@", "later")
        #expect(try context.fetch(request) == [note])
    }

    /// `entity()` is the entity whose class is the receiver, and `fetchRequest()` of
    /// NSManagedObject fetches it as `NSFetchRequestResult`s; a generated class's own
    /// `fetchRequest()` is typed with the class (developer.apple.com: NSManagedObject.entity(),
    /// "Returns the entity description that is associated with this subclass").
    @Test func classMethodsNameTheClassesEntity() throws {
        let context = try Self.context()
        #expect(Note.entity().name == "Note")
        #expect(Item.entity().name == "Item")
        let untyped: NSFetchRequest<NSFetchRequestResult> = Note.fetchRequest()
        #expect(untyped.entityName == "Note")
        #expect(try context.fetch(untyped).count == 3)
        let byName = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        byName.resultType = .countResultType
        #expect((try context.fetch(byName).first as? NSNumber)?.intValue == 3)
        let typed: NSFetchRequest<Note> = Note.fetchRequest()
        #expect(try context.fetch(typed).count == 3)
    }
}
