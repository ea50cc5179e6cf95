import Foundation
import ModelExpression

/// A format string's argument as the predicate language's value: numbers, strings, dates and
/// the other attribute values as they are, objects and object IDs as references to their rows,
/// entity descriptions as entities (`entity == %@`), history tokens as their transaction's number
/// (`token > %@` in a history fetch), arrays and sets as collections.
enum PredicateArgument {
    static func value(_ argument: Any) throws -> EvaluatedValue {
        switch argument {
        case is NSNull: return .null
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as Int32: return .integer(Int64(value))
        case let value as Int16: return .integer(Int64(value))
        case let value as Double: return .double(value)
        case let value as Float: return .double(Double(value))
        case let value as Decimal: return .decimal(value)
        case let value as Date: return .date(value)
        case let value as Data: return .data(value)
        case let value as UUID: return .uuid(value)
        case let value as URL: return .uri(value)
        case let value as ManagedObject: return .object(value.reference)
        case let value as ManagedObjectID: return .object(ObjectReference(value))
        case let value as EntityDescription: return .entity(value.name)
        case let value as HistoryToken: return .integer(value.transactionNumber)
        case let value as NSNumber: return .double(value.doubleValue)
        case let values as [Any]: return .collection(try values.map(value))
        case let values as NSSet: return .collection(try values.allObjects.map(value))
        case let values as NSOrderedSet: return .collection(try values.array.map(value))
        case let values as Set<AnyHashable>: return .collection(try values.map { try value($0.base) })
        default:
            let optional = Mirror(reflecting: argument)
            if optional.displayStyle == .optional {
                guard let wrapped = optional.children.first?.value else { return .null }
                return try value(wrapped)
            }
            throw ContextError.make(1550, "a \(type(of: argument)) cannot be an argument of a predicate")
        }
    }
}

extension ObjectReference {
    /// The reference of an object ID: its entity and key (of its store's key space, which the
    /// SQL of each store turns into a primary key); a temporary ID matches no row.
    init(_ id: ManagedObjectID) {
        self.init(side: .source, entity: id.entityName, primaryKey: id.isTemporaryID ? Int64.min : id.rowKey)
    }
}

extension ManagedObject {
    /// The object as a predicate's value: its row, or for a new object a number no row has.
    var reference: ObjectReference {
        ObjectReference(side: .source, entity: entity.name, primaryKey: objectID.rowKey)
    }
}
