import ModelSchema

/// The Core Data settings of one Xcode 3 model element (entity, attribute, relationship).
///
/// Xcode 3 stored them as UML "stereotypes": `XDBucketForStereotypesstorage` maps a stereotype
/// name (`XD_PStereotype`, `XD_PPropStereotype`, `XD_PAtt_Stereotype`, `XD_PR_Stereotype`) to an
/// `XDUMLStereotypeImp` whose `XDBucketForOwnedAttributesstorage` maps each setting's key to an
/// `XDUMLPropertyImp`; the setting's value is that property's `_default`. This type flattens
/// them into one key → value table and remembers which keys were read, so that a setting this
/// reader does not know is reported by its key instead of being lost.
final class Xcode3Stereotypes {
    private var values: [String: ArchiveValue] = [:]
    private var read: Set<String> = []
    /// What the settings belong to, for messages (`attribute 'name' of entity 'Recipe'`).
    private let owner: String
    /// Where the user-info keys that cannot be kept are noted, for the whole archive.
    private let dropped: DroppedKeys

    /// The user-info keys of a whole archive whose values were dropped.
    final class DroppedKeys {
        var keys: Set<String> = []
    }

    init(_ element: ArchivedObject, owner: String, dropped: DroppedKeys) throws {
        self.owner = owner
        self.dropped = dropped
        for (stereotype, value) in ModelUnarchiver.entries(element["XDBucketForStereotypesstorage"]) {
            guard let object = value.object, object.className == "XDUMLStereotypeImp" else {
                throw Xcode3ModelReader.FormatError(description: "unsupported stereotype \(stereotype) of \(owner)")
            }
            for (key, setting) in ModelUnarchiver.entries(object["XDBucketForOwnedAttributesstorage"]) {
                guard let property = setting.object, property.className == "XDUMLPropertyImp" else {
                    throw Xcode3ModelReader.FormatError(description: "unsupported class \(setting.object?.className ?? "value") for key \(key) of \(owner)")
                }
                values[key] = property["_default"] ?? .null
            }
        }
    }

    // MARK: - Values

    /// The value of `key`, or `nil` when it is absent or null.
    func value(_ key: String) -> ArchiveValue? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        if case .null = value { return nil }
        return value
    }

    func string(_ key: String) -> String? {
        value(key)?.string
    }

    func bool(_ key: String) -> Bool {
        value(key)?.bool ?? false
    }

    func integer(_ key: String) -> Int? {
        value(key)?.integer.map { Int($0) }
    }

    /// The members of an array-valued setting.
    func list(_ key: String) -> [ArchiveValue] {
        value(key)?.object.map(ModelUnarchiver.items) ?? []
    }

    /// A user-info dictionary. Xcode 3 also kept Sync Services policies there as nested
    /// dictionaries, which the XML format cannot hold; only string values are kept, and the
    /// keys of the others noted in ``dropped``.
    func userInfo(_ key: String) -> UserInfo {
        let entries = ModelUnarchiver.entries(value(key)).compactMap { entry -> UserInfoEntry? in
            guard let text = entry.value.string else {
                dropped.keys.insert(entry.key)
                return nil
            }
            return UserInfoEntry(key: entry.key, value: text)
        }
        return entries.isEmpty ? nil : entries.sorted { $0.key < $1.key }
    }

    // MARK: - Completeness

    /// Throws for the first setting (in key order) that was never read and holds a value,
    /// apart from `ignoring` (Xcode's own bookkeeping).
    func checkAllRead(ignoring: Set<String> = []) throws {
        for key in values.keys.sorted() where !read.contains(key) && !ignoring.contains(key) {
            if case .null = values[key]! { continue }
            throw Xcode3ModelReader.FormatError(description: "unsupported key \(key) of \(owner)")
        }
    }
}
