import Foundation

/// The objects of an import file, `{"objects": [...]}` in the shape `fetch --json` prints.
struct ImportFile {
    /// One object of the file and where it is in it.
    struct Object {
        var place: String
        var id: String
        var entity: String
        var attributes: [String: Any]
        var relationships: [String: Any]
    }

    /// Reads and checks the file's shape; a file that is not that shape is refused with the place.
    /// The file is parsed whole with `JSONSerialization`, so its parsed values take memory in
    /// proportion to its size (the objects and the context of an import do not).
    static func read(_ path: String) throws -> [Object] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(fileError: error, path: path)
        }
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let list = root["objects"] as? [Any] else {
            throw failure("the file is not a JSON object with an \"objects\" array", path)
        }
        return try list.enumerated().map { index, item in
            let place = "objects[\(index)]"
            guard let object = item as? [String: Any], let id = object["id"] as? String, let entity = object["entity"] as? String else {
                throw failure("\(place) needs an \"id\" and an \"entity\" string", path)
            }
            return Object(
                place: place, id: id, entity: entity, attributes: object["attributes"] as? [String: Any] ?? [:],
                relationships: object["relationships"] as? [String: Any] ?? [:])
        }
    }

    /// A failure of the file, with Core Data's generic validation code.
    static func failure(_ message: String, _ path: String, code: Int = 1550) -> CommandFailure {
        CommandFailure(errorClass: "invalidImport", code: String(code), message: message, path: path)
    }
}
