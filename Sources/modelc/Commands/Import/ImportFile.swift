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

    /// Reads the file and finds its objects; a file that is not that shape is refused.
    init(_ path: String) throws {
        self.path = path
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(fileError: error, path: path)
        }
        var scanner = JSONObjectsScanner(data)
        guard let ranges = scanner.objectRanges() else {
            throw Self.failure("the file is not a JSON object with an \"objects\" array", path)
        }
        self.ranges = ranges
    }

    /// The object at `position`, parsed; refused with its place when it is not valid JSON or
    /// not an object with an id and an entity.
    func object(_ position: Int) throws -> Object {
        let place = "objects[\(position)]"
        guard let item = try? JSONSerialization.jsonObject(with: data.subdata(in: ranges[position]), options: .fragmentsAllowed) else {
            throw Self.failure("\(place) is not valid JSON", path)
        }
        guard let object = item as? [String: Any], let id = object["id"] as? String, let entity = object["entity"] as? String else {
            throw Self.failure("\(place) needs an \"id\" and an \"entity\" string", path)
        }
        return Object(
            place: place, id: id, entity: entity, attributes: object["attributes"] as? [String: Any] ?? [:],
            relationships: object["relationships"] as? [String: Any] ?? [:])
    }

    /// A failure of the file, with Core Data's generic validation code.
    static func failure(_ message: String, _ path: String, code: Int = 1550) -> CommandFailure {
        CommandFailure(errorClass: "invalidImport", code: String(code), message: message, path: path)
    }
}
