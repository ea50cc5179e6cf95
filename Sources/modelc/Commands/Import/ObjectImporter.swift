import Foundation
import ModelContext
import ModelSchema

/// Inserts an import file's objects into a context, links them by their ids in the file and
/// saves once; every refusal names the place in the file.
struct ObjectImporter {
    let context: ManagedObjectContext
    /// The file, for messages.
    let path: String

    func run(_ objects: [ImportFile.Object]) throws -> ImportReport {
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else { return ImportReport(imported: 0, ids: [:]) }
        var made = [String: ManagedObject]()
        var places = [ObjectIdentifier: String]()
        for object in objects {
            guard let entity = model.entitiesByName[object.entity], !entity.isAbstract else {
                throw ImportFile.failure("\(object.place).entity: the model has no (concrete) entity '\(object.entity)'", path)
            }
            guard made[object.id] == nil else { throw ImportFile.failure("\(object.place).id: '\(object.id)' is the id of an earlier object too", path) }
            let inserted = ManagedObject(entity: entity, insertInto: context)
            let attributes = entity.attributesByName
            for (key, value) in object.attributes {
                guard let attribute = attributes[key], !attribute.isTransient else {
                    throw ImportFile.failure("\(object.place).attributes.\(key): \(entity.name) has no stored attribute '\(key)'", path)
                }
                if attribute.isDerived { continue }
                do {
                    inserted.setValue(try ImportValue.value(value, for: attribute), forKey: key)
                } catch let message as ImportValue.Mismatch {
                    throw ImportFile.failure("\(object.place).attributes.\(key): \(message.text)", path)
                }
            }
            made[object.id] = inserted
            places[ObjectIdentifier(inserted)] = object.place
        }
        for object in objects {
            guard let inserted = made[object.id] else { continue }
            let relationships = inserted.entity.relationshipsByName
            for (key, value) in object.relationships {
                guard let relationship = relationships[key], !relationship.isTransient else {
                    throw ImportFile.failure("\(object.place).relationships.\(key): \(inserted.entity.name) has no relationship '\(key)'", path)
                }
                let place = "\(object.place).relationships.\(key)"
                func target(_ id: Any) throws -> ManagedObject {
                    guard let id = id as? String, let found = made[id] else {
                        throw ImportFile.failure("\(place): no object of the file has the id \(id)", path, code: 133000)
                    }
                    return found
                }
                if relationship.isToMany {
                    guard let ids = value as? [Any] else { throw ImportFile.failure("\(place): a to-many needs a list of ids", path) }
                    let targets = try ids.map(target)
                    inserted.setValue(relationship.isOrdered ? NSOrderedSet(array: targets) : NSSet(array: targets), forKey: key)
                } else if !(value is NSNull) {
                    inserted.setValue(try target(value), forKey: key)
                }
            }
        }
        do {
            try context.save()
        } catch let error as NSError {
            let first = (error.userInfo[NSDetailedErrorsKey] as? [NSError])?.first ?? error
            let place = (first.userInfo[NSValidationObjectErrorKey] as? ManagedObject).flatMap { places[ObjectIdentifier($0)] } ?? "objects"
            let key = first.userInfo[NSValidationKeyErrorKey] as? String
            throw ImportFile.failure("\(place)\(key.map { ".\($0)" } ?? ""): \(error.localizedDescription)", path, code: error.code)
        }
        var ids = [String: String]()
        for (id, object) in made { ids[id] = object.objectID.uriRepresentation().absoluteString }
        return ImportReport(imported: made.count, ids: ids)
    }
}

/// A JSON value as the value of an attribute, in the forms `fetch --json` prints.
enum ImportValue {
    struct Mismatch: Error {
        var text: String
    }

    static func value(_ json: Any, for attribute: Attribute) throws -> Any? {
        if json is NSNull { return nil }
        let type = attribute.type.xmlName ?? "stored"
        func mismatch() -> Mismatch { Mismatch(text: "\(json) is not a value of a \(type) attribute") }
        switch attribute.type {
        case .string:
            guard let text = json as? String else { throw mismatch() }
            return text
        case .integer16, .integer32, .integer64:
            guard let number = json as? NSNumber, !isBoolean(number), let exact = Int64(exactly: number.doubleValue) else { throw mismatch() }
            return exact
        case .double, .float:
            guard let number = json as? NSNumber, !isBoolean(number) else { throw mismatch() }
            return number.doubleValue
        case .decimal:
            guard let text = json as? String, let decimal = Decimal(string: text) else { throw mismatch() }
            return decimal
        case .boolean:
            guard let number = json as? NSNumber, isBoolean(number) else { throw mismatch() }
            return number.boolValue
        case .date:
            guard let text = json as? String, let date = dateFormatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { throw mismatch() }
            return date
        case .binary, .transformable:
            guard let text = json as? String, let data = Data(base64Encoded: text) else { throw mismatch() }
            return data
        case .uuid:
            guard let text = json as? String, let id = UUID(uuidString: text) else { throw mismatch() }
            return id
        case .uri:
            guard let text = json as? String, let url = URL(string: text) else { throw mismatch() }
            return url
        default:
            throw mismatch()
        }
    }

    /// Whether JSON's `true`/`false` made the number (Foundation keeps it as a char).
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    nonisolated(unsafe) static let dateFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
