/// Decodes an NSKeyedArchiver archive into an ``ArchivedObject`` graph, resolving every UID
/// (cycles included) and checking every reference, so that a corrupt file is an error.
public enum KeyedArchiveReader {
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The root object of the archive in `bytes`.
    public static func unarchive(_ bytes: [UInt8]) throws -> ArchivedObject {
        let plist = try PropertyListReader.decode(bytes)
        guard plist["$archiver"]?.stringValue == "NSKeyedArchiver",
            case .array(let objects)? = plist["$objects"],
            case .uid(let root)? = plist["$top"]?["root"]
        else { throw FormatError(description: "not an NSKeyedArchiver archive") }
        var resolver = Resolver(objects: objects)
        guard case .object(let object) = try resolver.value(forUID: root) else {
            throw FormatError(description: "the archive's root is not an object")
        }
        try resolver.fillPendingObjects()
        return object
    }

    /// Resolves UIDs without recursion: an object is created empty when first referred to and
    /// its fields are filled from a work list, so a chain of references as long as the archive
    /// (a hostile file, or 20,000 entities each the parent of the next) never deepens the stack.
    private struct Resolver {
        let objects: [PropertyListValue]
        var resolved: [UInt32: ArchivedObject] = [:]
        /// Objects created and not yet filled, with their entries.
        var pending: [(object: ArchivedObject, entries: [(key: String, value: PropertyListValue)])] = []

        mutating func value(forUID uid: UInt32) throws -> ArchiveValue {
            guard Int(uid) < objects.count else { throw FormatError(description: "UID \(uid) out of range") }
            if uid == 0 { return .null }
            if let known = resolved[uid] { return .object(known) }
            switch objects[Int(uid)] {
            case .string(let text): return .string(text)
            case .data(let bytes): return .data(bytes)
            case .integer, .real, .bool: return .number(objects[Int(uid)])
            case .dictionary(let entries):
                guard case .uid(let classUID)? = entries.first(where: { $0.key == "$class" })?.value,
                    Int(classUID) < objects.count, case .array(let names)? = objects[Int(classUID)]["$classes"]
                else { throw FormatError(description: "object \(uid) has no class") }
                let object = ArchivedObject(names.compactMap(\.stringValue))
                resolved[uid] = object
                pending.append((object, entries))
                return .object(object)
            default:
                throw FormatError(description: "object \(uid) has an unsupported type")
            }
        }

        /// Fills every object created so far, and those their fields create, in any order.
        mutating func fillPendingObjects() throws {
            while let (object, entries) = pending.popLast() {
                for (key, value) in entries where key != "$class" {
                    object.fields.append((key, try field(value)))
                }
            }
        }

        mutating func field(_ value: PropertyListValue) throws -> ArchiveValue {
            switch value {
            case .uid(let uid): return try self.value(forUID: uid)
            case .bool(let flag): return .bool(flag)
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .array(let items): return .references(try items.map { try field($0) })
            case .string(let text): return .string(text)
            case .data(let bytes): return .bytes(bytes)
            default: throw FormatError(description: "unsupported field value")
            }
        }
    }
}
