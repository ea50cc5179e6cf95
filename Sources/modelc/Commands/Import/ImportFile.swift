import Foundation

/// The objects of an import file, `{"objects": [...]}` in the shape `fetch --json` prints.
///
/// The file's bytes are kept and each object is parsed when asked for (``object(_:)``), so an
/// import holds the file (its size in bytes) and the byte range of each object, never the whole
/// parsed tree: `JSONSerialization` of a whole file takes about sixty times its size in memory
/// here (600 MB for a 10 MB file of 62,000 objects). An import reads each object a few times
/// (checking, ordering, inserting, linking), each parse a few microseconds.
struct ImportFile {
    /// One object of the file and where it is in it.
    struct Object {
        var place: String
        var id: String
        var entity: String
        var attributes: [String: Any]
        var relationships: [String: Any]
    }

    /// The file, for messages.
    let path: String
    private let data: Data
    /// Each object's bytes in `data`.
    private let ranges: [Range<Int>]

    var count: Int { ranges.count }
    var indices: Range<Int> { ranges.indices }

    /// The bytes read first to see whether the file can be JSON at all, before all of it is read.
    static let headSize = 64 * 1024

    /// Reads the file and finds its objects; a file that is not that shape is refused, one
    /// whose first bytes are not JSON text before the rest is read.
    init(_ path: String) throws {
        self.path = path
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let head = try handle.read(upToCount: Self.headSize) ?? Data()
            if let reason = Self.notJSON(head) { throw Self.failure("the file is not a JSON object with an \"objects\" array: \(reason)", path) }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(fileError: error, path: path)
        }
        guard let ranges = data.withUnsafeBytes({ bytes in
            var scanner = JSONObjectsScanner(bytes)
            return scanner.objectRanges()
        }) else {
            throw Self.failure("the file is not a JSON object with an \"objects\" array", path)
        }
        self.ranges = ranges
    }

    /// Why the first bytes of a file cannot start JSON text: a first byte other than `{` after
    /// the blanks, or a control character (JSON text has none, escaped or not, but its blanks).
    private static func notJSON(_ head: Data) -> String? {
        if let control = head.firstIndex(where: { $0 < 0x20 && !ImportJSON.isBlank($0) }) {
            return String(format: "byte %d is the control character 0x%02X", control - head.startIndex, head[control])
        }
        guard let first = head.first(where: { !ImportJSON.isBlank($0) }) else { return head.isEmpty ? "it is empty" : "it is blank" }
        return first == UInt8(ascii: "{") ? nil : "it does not start with '{'"
    }

    /// The object at `position`, parsed; refused with its place when it is not valid JSON or
    /// not an object of an id and an entity (strings), attributes and relationships (objects).
    func object(_ position: Int) throws -> Object {
        let place = "objects[\(position)]"
        let item: Any
        do {
            item = try data.withUnsafeBytes { try ImportJSON.parse(UnsafeRawBufferPointer(rebasing: $0[ranges[position]])) }
        } catch let error as ImportJSON.Invalid {
            throw Self.failure("\(place) is not valid JSON: \(error.text)", path)
        }
        guard let object = item as? [String: Any] else { throw Self.failure("\(place) is not a JSON object", path) }
        if let key = object.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw Self.failure("\(place).\(key): an object has only \"id\", \"entity\", \"attributes\" and \"relationships\"", path)
        }
        guard let id = object["id"] as? String else { throw Self.failure("\(place).id: an object needs an \"id\" string", path) }
        guard let entity = object["entity"] as? String else { throw Self.failure("\(place).entity: an object needs an \"entity\" string", path) }
        func members(_ key: String) throws -> [String: Any] {
            guard let value = object[key] else { return [:] }
            guard let members = value as? [String: Any] else { throw Self.failure("\(place).\(key): \(ImportValue.describe(value)) is not a JSON object of \(key) by name", path) }
            return members
        }
        return Object(place: place, id: id, entity: entity, attributes: try members("attributes"), relationships: try members("relationships"))
    }

    /// The members an object of the file may have.
    private static let keys: Set<String> = ["id", "entity", "attributes", "relationships"]

    /// A failure of the file, with Core Data's generic validation code.
    static func failure(_ message: String, _ path: String, code: Int = 1550) -> CommandFailure {
        CommandFailure(errorClass: "invalidImport", code: String(code), message: message, path: path)
    }
}
