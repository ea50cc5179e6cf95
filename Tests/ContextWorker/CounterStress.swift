import Foundation
import ModelObjects
import ModelStack

/// The stress of the two-process tests: several contexts of this process increment the `pages`
/// of the books titled `counter…` at random for a bounded time, each save one increment, and
/// count what happened, so the test can hold the store to it: each successful save, by
/// counter; each conflict the save reported (133020), after which the context drops its changes
/// and reads the rows again; any other error.
struct CounterStress {
    let container: PersistentContainer
    let policy: MergePolicy

    /// Runs `contexts` contexts, each on a thread of its own, for `seconds`; the counts, with the
    /// successes by counter URI.
    func run(seconds: Double, contexts: Int) throws -> [String: Any] {
        let reader = container.newBackgroundContext()
        let counters: [ManagedObjectID] = try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "title BEGINSWITH 'counter'")
            return try reader.fetch(request).map(\.objectID)
        }
        guard !counters.isEmpty else { return ["ok": false, "error": "no counters in the store"] }
        let tally = Mutex(Tally())
        let deadline = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for _ in 0..<contexts {
            let context = container.newBackgroundContext()
            context.mergePolicy = policy
            group.enter()
            let thread = Thread {
                while Date() < deadline {
                    let counter = counters.randomElement()!
                    let outcome = context.performAndWait { Self.increment(counter, in: context) }
                    tally.withLock { $0.add(outcome, counter) }
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return tally.withLock { tally in
            [
                "ok": true, "successes": Dictionary(uniqueKeysWithValues: tally.successes.map { ($0.key.uriRepresentation().absoluteString, $0.value) }),
                "conflicts": tally.conflicts, "errors": tally.errors,
            ]
        }
    }

    /// What one increment did.
    enum Outcome: Sendable {
        case saved
        case conflict
        case failed(String)
    }

    /// Reads `counter` (from the store half the time, else as the context last saw it, maybe
    /// stale), adds one to its pages, saves.
    private static func increment(_ counter: ManagedObjectID, in context: ManagedObjectContext) -> Outcome {
        do {
            let book = try context.existingObject(with: counter)
            if Bool.random() { context.refresh(book, mergeChanges: false) }
            let pages = (book.value(forKey: "pages") as? Int32) ?? 0
            book.setValue(pages + 1, forKey: "pages")
            try context.save()
            return .saved
        } catch let error as NSError where error.code == 133020 {
            context.rollback()
            context.refreshAllObjects()
            return .conflict
        } catch {
            context.rollback()
            return .failed("\(error)")
        }
    }

    /// The counts so far.
    struct Tally {
        var successes: [ManagedObjectID: Int] = [:]
        var conflicts = 0
        var errors: [String] = []

        mutating func add(_ outcome: Outcome, _ counter: ManagedObjectID) {
            switch outcome {
            case .saved: successes[counter, default: 0] += 1
            case .conflict: conflicts += 1
            case .failed(let message): errors.append(message)
            }
        }
    }
}
