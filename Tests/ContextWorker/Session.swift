import Foundation
import ModelObjects
import ModelStack

/// The worker's one context and the commands run on it.
final class Session: Sendable {
    let container: PersistentContainer
    let context: ManagedObjectContext
    private let observers = Mutex<[NSObjectProtocol]>([])

    init(container: PersistentContainer) {
        self.container = container
        context = container.newBackgroundContext()
    }

    static let policies: [String: MergePolicy] = [
        "error": .error, "storeTrump": .mergeByPropertyStoreTrump, "objectTrump": .mergeByPropertyObjectTrump,
        "overwrite": .overwrite, "rollback": .rollback,
    ]

    /// Runs `command` with `arguments`; the answer to print.
    func run(_ command: String, _ arguments: [String]) -> [String: Any] {
        do {
            switch command {
            case "policy":
                guard let policy = arguments.first.flatMap({ Self.policies[$0] }) else { return Self.failure("unknown policy \(arguments)") }
                context.performAndWait { context.mergePolicy = policy }
                return ["ok": true]
            case "insert", "get", "set", "delete", "save":
                return try context.performAndWait { try edit(command, arguments) }
            case "watch":
                watch()
                return ["ok": true]
            case "increment":
                guard arguments.count == 2, let seconds = Double(arguments[0]), let contexts = Int(arguments[1]), contexts > 0 else {
                    return Self.failure("usage: increment SECONDS CONTEXTS")
                }
                return try CounterStress(container: container, policy: context.performAndWait { context.mergePolicy }).run(seconds: seconds, contexts: contexts)
            case "offqueue":
                guard arguments.count == 2 else { return Self.failure("usage: offqueue fetch|read|release ENTITY") }
                return try offQueue(arguments[0], FetchRequest<ManagedObject>(entityName: arguments[1]))
            case "bulk":
                guard let rows = arguments.first.flatMap(Int.init), rows > 0 else { return Self.failure("usage: bulk ROWS") }
                try bulk(rows)
            case "photos":
                guard let bytes = arguments.first.flatMap(Int.init), bytes > 0 else { return Self.failure("usage: photos BYTES") }
                try photos(bytes)
            default:
                return Self.failure("unknown command \(command)")
            }
        } catch {
            let error = error as NSError
            let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any] ?? []
            return ["ok": false, "code": error.code, "conflicts": conflicts.count, "error": "\(error)"]
        }
    }

    /// One step of the context's work, on its queue.
    private func edit(_ command: String, _ arguments: [String]) throws -> [String: Any] {
        let model = container.persistentStoreCoordinator.managedObjectModel
        switch command {
        case "insert":
            guard let name = arguments.first, let entity = model.entitiesByName[name] else { return Self.failure("unknown entity \(arguments)") }
            let object = ManagedObject(entity: entity, insertInto: context)
            try assign(arguments.dropFirst(), to: object)
            return ["ok": true]
        case "get":
            let object = try object(arguments.first)
            var values = [String: Any]()
            for attribute in object.entity.attributes {
                values[attribute.name] = Self.json(object.value(forKey: attribute.name))
            }
            return ["ok": true, "values": values]
        case "set":
            try assign(arguments.dropFirst(), to: try object(arguments.first))
            return ["ok": true]
        case "delete":
            context.delete(try object(arguments.first))
            return ["ok": true]
        default:
            let inserted = Array(context.insertedObjects)
            try context.save()
            return ["ok": true, "inserted": inserted.map { $0.objectID.uriRepresentation().absoluteString }]
        }
    }

    /// Uses the context from off its queue, as checked mode (`MODELC_CONCURRENCY_DEBUG`) is to
    /// stop at once: `fetch` fetches there, `read` reads an object's value there, `release` lets
    /// go there of objects fetched on the queue (allowed: it touches nothing of the context's).
    private func offQueue(_ use: String, _ request: FetchRequest<ManagedObject>) throws -> [String: Any] {
        switch use {
        case "fetch":
            return ["ok": true, "count": try context.fetch(request).count]
        case "read":
            let objects = try context.performAndWait { try context.fetch(request) }
            let key = objects.first?.entity.attributes.first(where: { $0.name == "name" })?.name ?? objects.first?.entity.attributes.first?.name
            return ["ok": true, "value": Self.json(objects.first?.value(forKey: key ?? ""))]
        case "release":
            // The fetched objects are let go here, when the count is taken.
            return ["ok": true, "count": try context.performAndWait { try context.fetch(request) }.count]
        default:
            return Self.failure("usage: offqueue fetch|read|release ENTITY")
        }
    }

    /// The object a URI names, read into the context.
    private func object(_ uri: String?) throws -> ManagedObject {
        guard let uri, let url = URL(string: uri), let id = container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: url) else {
            throw CocoaError(.coderInvalidValue, userInfo: [NSDebugDescriptionErrorKey: "not an object ID of the store: \(uri ?? "nothing")"])
        }
        let object = try context.existingObject(with: id)
        _ = object.value(forKey: object.entity.attributes.first?.name ?? "")
        return object
    }

    /// Sets the `key=value` pairs on `object`, each value read as its attribute's type.
    private func assign(_ pairs: ArraySlice<String>, to object: ManagedObject) throws {
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let attribute = object.entity.attributes.first(where: { $0.name == parts[0] }) else {
                throw CocoaError(.coderInvalidValue, userInfo: [NSDebugDescriptionErrorKey: "not key=value of an attribute: \(pair)"])
            }
            let value: Any? = switch attribute.type {
            case .integer16, .integer32, .integer64: Int64(parts[1])
            case .double, .float: Double(parts[1])
            case .date: Double(parts[1]).map { Date(timeIntervalSinceReferenceDate: $0) }
            default: parts[1]
            }
            object.setValue(value, forKey: parts[0])
        }
    }

    /// Prints a line for each remote-change notification of the store from now on.
    private func watch() {
        let observer = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange, object: container.persistentStoreCoordinator, queue: nil
        ) { notification in
            let token = notification.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken
            Output.line(["remoteChange": token?.transactionNumber ?? 0])
        }
        observers.withLock { $0.append(observer) }
    }

    /// Saves `rows` new authors per transaction, printing the number of each commit, until killed.
    private func bulk(_ rows: Int) throws -> Never {
        let model = container.persistentStoreCoordinator.managedObjectModel
        guard let author = model.entitiesByName["Author"] else { throw CocoaError(.coderInvalidValue) }
        var round = 0
        while true {
            round += 1
            try context.performAndWait {
                for row in 0..<rows {
                    ManagedObject(entity: author, insertInto: context).setValue("bulk \(round).\(row)", forKey: "name")
                }
                try context.save()
                context.reset()
            }
            Output.line(["committed": round])
        }
    }

    /// Saves, until killed, a new photo of `bytes` bytes per transaction, with a new value for the
    /// one before it and, from the fourth on, the oldest deleted, printing the number of each commit.
    private func photos(_ bytes: Int) throws -> Never {
        guard let photo = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Photo"] else { throw CocoaError(.coderInvalidValue) }
        var kept = [ManagedObject]()
        var round = 0
        while true {
            round += 1
            try context.performAndWait {
                kept.last?.setValue(Data(repeating: UInt8(truncatingIfNeeded: round), count: bytes), forKey: "image")
                if kept.count >= 3 { context.delete(kept.removeFirst()) }
                let new = ManagedObject(entity: photo, insertInto: context)
                new.setValue(Data(repeating: UInt8(truncatingIfNeeded: round &+ 128), count: bytes), forKey: "image")
                kept.append(new)
                try context.save()
            }
            Output.line(["committed": round])
        }
    }

    static func failure(_ message: String) -> [String: Any] { ["ok": false, "error": message] }

    /// `value` as JSON holds it: a date as seconds since 2001-01-01.
    static func json(_ value: Any?) -> Any {
        switch value {
        case let date as Date: date.timeIntervalSinceReferenceDate
        case let value?: value
        case nil: NSNull()
        }
    }
}

/// A value guarded by a lock.
final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
