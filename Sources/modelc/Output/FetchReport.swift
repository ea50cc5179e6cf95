import Foundation
import ModelObjects
import ModelSchema

/// `fetch` output: the objects with their attributes and links, JSON or a table.
struct FetchReport: Encodable {
    var entity: String
    var count: Int
    var objects: [Object]?

    /// One object: its URI, its own entity, its attributes and its relationships' targets.
    struct Object: Encodable {
        var id: String
        var entity: String
        var attributes: [String: Value]
        var relationships: [String: Value]

        init(_ object: ManagedObject) {
            id = object.objectID.uriRepresentation().absoluteString
            entity = object.entity.name
            var attributes = [String: Value]()
            for attribute in object.entity.attributes where !attribute.isTransient {
                attributes[attribute.name] = Value(object.storedValue(forKey: attribute.name), attribute.type)
            }
            var relationships = [String: Value]()
            for relationship in object.entity.relationships where !relationship.isTransient {
                switch object.value(forKey: relationship.name) {
                case let target as ManagedObject: relationships[relationship.name] = .string(target.objectID.uriRepresentation().absoluteString)
                case let set as NSOrderedSet: relationships[relationship.name] = .list(set.array.compactMap { ($0 as? ManagedObject).map(Self.id) })
                case let set as NSSet:
                    let members = set.allObjects.compactMap { $0 as? ManagedObject }.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
                    relationships[relationship.name] = .list(members.map(Self.id))
                default: relationships[relationship.name] = relationship.isToMany ? .list([]) : .null
                }
            }
            self.attributes = attributes
            self.relationships = relationships
        }

        static func id(_ object: ManagedObject) -> String { object.objectID.uriRepresentation().absoluteString }
    }

    /// A value in the JSON form the fetch command documents, each exact to the bit so that
    /// `import` reads back the same value (``JSONForms``): doubles and floats in their shortest
    /// round-trip text, dates in RFC 3339 with as many fractional digits as they need.
    enum Value: Encodable {
        case null
        case string(String)
        case integer(Int64)
        /// A double, or a date no RFC 3339 text is exact for, as its stored seconds.
        case double(Double)
        case float(Float)
        case bool(Bool)
        case list([String])

        init(_ value: Any?, _ type: AttributeType) {
            switch value {
            case nil: self = .null
            case let text as String: self = .string(text)
            case let flag as Bool: self = .bool(flag)
            case let number as Int16: self = .integer(Int64(number))
            case let number as Int32: self = .integer(Int64(number))
            case let number as Int64: self = type == .boolean ? .bool(number != 0) : .integer(number)
            case let number as Double: self = .double(number)
            case let number as Float: self = .float(number)
            case let number as Decimal: self = .string("\(number)")
            case let date as Date:
                let seconds = date.timeIntervalSinceReferenceDate
                self = JSONForms.text(ofDate: seconds).map(Value.string) ?? .double(seconds)
            case let data as Data: self = .string(data.base64EncodedString())
            case let id as UUID: self = .string(id.uuidString)
            case let url as URL: self = .string(url.absoluteString)
            case let other?: self = .string("\(other)")
            }
        }

        nonisolated(unsafe) static let dateFormatter: ISO8601DateFormatter = {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter
        }()

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            // JSON has no non-finite number: those are strings, which import reads back.
            case .double(let value):
                if let name = JSONForms.name(ofNonFinite: value) { try container.encode(name) } else { try container.encode(value) }
            case .float(let value):
                if let name = JSONForms.name(ofNonFinite: Double(value)) { try container.encode(name) } else { try container.encode(value) }
            case .bool(let value): try container.encode(value)
            case .list(let value): try container.encode(value)
            }
        }

        /// The value in a table cell.
        var text: String {
            switch self {
            case .null: "nil"
            case .string(let value): value
            case .integer(let value): String(value)
            case .double(let value): String(value)
            case .float(let value): String(value)
            case .bool(let value): value ? "YES" : "NO"
            case .list(let value): "\(value.count) objects"
            }
        }
    }

    /// A table: one row per object, its key, entity and attributes, cells cut at 40 characters.
    func printText() {
        guard let objects else {
            print("\(count) \(entity) object\(count == 1 ? "" : "s")")
            return
        }
        let keys = Array(Set(objects.flatMap { $0.attributes.keys })).sorted()
        var rows = [["id", "entity"] + keys]
        for object in objects {
            let key = object.id.split(separator: "/").last.map(String.init) ?? object.id
            rows.append([key, object.entity] + keys.map { key in
                let text = object.attributes[key]?.text ?? ""
                return text.count > 40 ? String(text.prefix(39)) + "…" : text
            })
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            print(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
        print("\(count) \(entity) object\(count == 1 ? "" : "s")")
    }
}
