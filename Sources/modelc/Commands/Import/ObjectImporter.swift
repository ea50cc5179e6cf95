import Foundation
import ModelObjects
import ModelSchema

/// Inserts an import file's objects into a context and links them by their ids in the file,
/// saving in batches so that the objects in memory are at most about one batch's, whatever the
/// size of the file; every refusal names the place in the file.
///
/// The file's objects are parsed one at a time when needed (``ImportFile``), never all at once.
/// First the whole file is checked (entities, keys, values, ids) without touching the context,
/// so most bad files are refused before anything is saved. Then, in the batches of
/// ``ImportOrder``, pass 1 inserts objects with their attributes and constrained links (targets
/// of earlier batches come back as faults through their object IDs) and saves; pass 2, in
/// batches of the same size and in the file's order, sets every other link on faults (ordered
/// to-manys in the file's order) and saves. After each save the context lets go of its objects
/// (``ManagedObjectContext/refreshAllObjects()`` drops the to-many arrays that would keep
/// objects alive through each other, then ``ManagedObjectContext/reset()``), so only the
/// object IDs of the file's ids are kept across batches. The batches are savepoints of one
/// transaction the caller holds open (``ModelStore/StoreTransaction``), so that a failure in any
/// batch leaves the store as it was.
struct ObjectImporter {
    let context: ManagedObjectContext
    /// The file, for messages.
    let path: String
    /// How many objects a batch inserts or links.
    let batchSize: Int
    /// Whether the report maps the file's ids to the new object IDs (a table as large as the
    /// file's ids, made only for `--json`).
    let reportsIDs: Bool

    func run(_ file: ImportFile) throws -> ImportReport {
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else { return ImportReport(imported: 0, ids: [:]) }
        let schema = ImportSchema(model)
        let positions = try check(file, schema)
        let targets = { (value: Any) -> [Int] in
            ((value as? [Any]) ?? [value]).compactMap { ($0 as? String).flatMap { positions[$0] } }
        }
        let order = try ImportOrder(file, schema: schema, size: batchSize, targets: targets)
        var ids = [ManagedObjectID?](repeating: nil, count: file.count)
        for batch in order.batches { try insert(batch, file, &ids, order, schema) }
        for start in stride(from: 0, to: file.count, by: batchSize) {
            try linkRest(start..<min(start + batchSize, file.count), file, ids, order, schema, targets)
        }
        guard reportsIDs else { return ImportReport(imported: file.count, ids: [:]) }
        return ImportReport(imported: file.count, ids: positions.compactMapValues { ids[$0]?.uriRepresentation().absoluteString })
    }

    // MARK: - Passes

    /// Pass 1 for `batch`: inserts its objects with their attributes and constrained links,
    /// saves, and records their object IDs.
    private func insert(_ batch: [Int], _ file: ImportFile, _ ids: inout [ManagedObjectID?], _ order: ImportOrder, _ schema: ImportSchema) throws {
        var inserted = [Int: ManagedObject]()
        for position in batch {
            let object = try file.object(position)
            guard let entity = schema[object.entity] else { continue }
            let made = ManagedObject(entity: entity.description, insertInto: context)
            for (key, value) in object.attributes {
                guard let attribute = entity.attributes[key], !attribute.isDerived else { continue }
                made.setValue(try? ImportValue.value(value, for: attribute), forKey: key)
            }
            inserted[position] = made
        }
        for position in batch {
            guard let made = inserted[position] else { continue }
            for (key, linked) in order.constrainedLinks(of: position) {
                let found = linked.compactMap { inserted[$0] ?? ids[$0].map(context.object(with:)) }
                link(made, key, to: found, schema)
            }
        }
        try save(ids) { object in inserted.first { $0.value === object }?.key }
        for (position, made) in inserted { ids[position] = made.objectID }
        letGo()
    }

    /// Pass 2 for `batch`: sets the links that are not constrained, then saves.
    private func linkRest(
        _ batch: Range<Int>, _ file: ImportFile, _ ids: [ManagedObjectID?], _ order: ImportOrder, _ schema: ImportSchema,
        _ targets: (Any) -> [Int]
    ) throws {
        var changed = false
        for position in batch {
            let object = try file.object(position)
            let skipped = order.constrainedLinks(of: position)
            for (key, value) in object.relationships where skipped[key] == nil {
                let linked = targets(value)
                guard !linked.isEmpty, let id = ids[position] else { continue }
                link(context.object(with: id), key, to: linked.compactMap { ids[$0].map(context.object(with:)) }, schema)
                changed = true
            }
        }
        guard changed else { return }
        try save(ids) { _ in nil }
        letGo()
    }

    /// Sets relationship `key` of `object` to `targets` (a to-many in their order).
    private func link(_ object: ManagedObject, _ key: String, to targets: [ManagedObject], _ schema: ImportSchema) {
        guard let relationship = schema[object.entity.name]?.relationships[key] else { return }
        if relationship.isToMany {
            object.setValue(relationship.isOrdered ? NSOrderedSet(array: targets) : NSSet(array: targets), forKey: key)
        } else {
            object.setValue(targets.first, forKey: key)
        }
    }

    /// Saves the batch; a validation failure names the object's place in the file (found by
    /// `position` for a new object, else by its object ID) and carries Core Data's code.
    private func save(_ ids: [ManagedObjectID?], position: (ManagedObject) -> Int?) throws {
        do {
            try context.save()
        } catch let error as NSError {
            let first = (error.userInfo[NSDetailedErrorsKey] as? [NSError])?.first ?? error
            let object = first.userInfo[NSValidationObjectErrorKey] as? ManagedObject
            let found = object.flatMap { object in position(object) ?? ids.firstIndex { $0 == object.objectID } }
            let place = found.map { "objects[\($0)]" } ?? "objects"
            let key = first.userInfo[NSValidationKeyErrorKey] as? String
            throw ImportFile.failure("\(place)\(key.map { ".\($0)" } ?? ""): \(error.localizedDescription)", path, code: error.code)
        }
    }

    /// Lets the context forget the saved batch, so that its objects are freed.
    private func letGo() {
        context.refreshAllObjects()
        context.reset()
    }

    // MARK: - Checking

    /// Checks every object of the file against the model, in the order a single pass would
    /// meet the problems (each object's entity, id and attributes, then every object's
    /// relationships: ids of objects of the destination entity or its subentities), and
    /// returns each id's position.
    private func check(_ file: ImportFile, _ schema: ImportSchema) throws -> [String: Int] {
        var positions = [String: Int]()
        var entities = [String]()
        for position in file.indices {
            let object = try file.object(position)
            guard let entity = schema[object.entity], !entity.description.isAbstract else {
                throw ImportFile.failure("\(object.place).entity: the model has no (concrete) entity '\(object.entity)'", path)
            }
            guard positions[object.id] == nil else { throw ImportFile.failure("\(object.place).id: '\(object.id)' is the id of an earlier object too", path) }
            for (key, value) in object.attributes {
                guard let attribute = entity.attributes[key], !attribute.isTransient else {
                    throw ImportFile.failure("\(object.place).attributes.\(key): \(object.entity) has no stored attribute '\(key)'", path)
                }
                if attribute.isDerived { continue }
                do {
                    _ = try ImportValue.value(value, for: attribute)
                } catch {
                    throw ImportFile.failure("\(object.place).attributes.\(key): \(error.text)", path, code: error.code)
                }
            }
            positions[object.id] = position
            entities.append(object.entity)
        }
        for position in file.indices {
            let object = try file.object(position)
            let relationships = schema[object.entity]?.relationships ?? [:]
            for (key, value) in object.relationships {
                guard let relationship = relationships[key], !relationship.isTransient else {
                    throw ImportFile.failure("\(object.place).relationships.\(key): \(object.entity) has no relationship '\(key)'", path)
                }
                let place = "\(object.place).relationships.\(key)"
                let ids: [Any]
                if relationship.isToMany {
                    guard let list = value as? [Any] else { throw ImportFile.failure("\(place): a to-many needs a list of ids", path) }
                    ids = list
                } else {
                    guard value is String || value is NSNull else { throw ImportFile.failure("\(place): a to-one needs an id or null", path) }
                    ids = value is NSNull ? [] : [value]
                }
                for id in ids {
                    guard let id = id as? String else { throw ImportFile.failure("\(place): \(ImportValue.describe(id)) is not an id", path) }
                    guard let target = positions[id] else { throw ImportFile.failure("\(place): no object of the file has the id \(id)", path, code: 133000) }
                    guard schema.isKind(entities[target], of: relationship) else {
                        throw ImportFile.failure(
                            "\(place): '\(id)' is \(entities[target]), not \(relationship.destinationEntityName) or one of its subentities", path)
                    }
                }
            }
        }
        return positions
    }
}
