import Foundation
import GRDB
import ModelSchema
import ModelStore

/// What an `ACHANGE` row's numbers mean in a model: the entity of `ZENTITY`, the property each
/// bit of `ZCOLUMNS` stands for (the entity's persistent attributes and relationships, to-manys
/// included, sorted by name) and the attribute each `ZTOMBSTONEn` column holds (the entity's
/// attributes preserved on deletion, sorted by name, external binary data never). Each entity's
/// lists are worked out once per read.
struct HistoryPropertyLists {
    let model: ManagedObjectModel
    private var properties: [String: [String]] = [:]
    private var tombstoned: [String: [Attribute]] = [:]

    init(model: ManagedObjectModel) { self.model = model }

    /// The entity numbered `number`; 134060 when the model has none (the store is of another model).
    func entity(number: Int, change: Int64) throws -> EntityDescription {
        guard let shape = model.rows.shape(number: number), let entity = model.entitiesByName[shape.name] else {
            throw ContextError.make(134060, "change \(change) is of entity number \(number), which the model has not")
        }
        return entity
    }

    /// The names of the properties of `entity`'s list whose bits `bitmap` (`ZCOLUMNS`) sets; bits
    /// past the list's end name nothing.
    mutating func names(in bitmap: Data, of entity: EntityDescription) -> [String] {
        let list = propertyNames(of: entity)
        return ChangedColumns.positions(in: bitmap, below: list.count).map { list[$0] }
    }

    /// The positions of the persistent properties among `names` in `entity`'s list, lowest first.
    mutating func positions(of names: some Sequence<String>, in entity: EntityDescription) -> [Int] {
        let list = propertyNames(of: entity)
        return Set(names).compactMap { list.firstIndex(of: $0) }.sorted()
    }

    /// `entity`'s persistent attributes and relationships, sorted by name.
    private mutating func propertyNames(of entity: EntityDescription) -> [String] {
        if let known = properties[entity.name] { return known }
        let names = (entity.attributes.filter { !$0.isTransient }.map(\.name) + entity.relationships.filter { !$0.isTransient }.map(\.name)).sorted()
        properties[entity.name] = names
        return names
    }

    /// The preserved values of a deleted object of `entity`, by attribute name, nil ones left out.
    mutating func tombstone(_ columns: [DatabaseValue], of entity: EntityDescription) -> [String: Any] {
        var values = [String: Any]()
        for (attribute, column) in zip(preservedAttributes(of: entity), columns) {
            if let value = StoredValue.object(column, as: attribute.type) { values[attribute.name] = value }
        }
        return values
    }

    /// `entity`'s attributes preserved on deletion, in the order of the `ZTOMBSTONEn` columns.
    mutating func preservedAttributes(of entity: EntityDescription) -> [Attribute] {
        if let known = tombstoned[entity.name] { return known }
        let found = entity.attributes.filter(PersistentHistoryLayout.isTombstoned)
            .sorted { $0.name < $1.name }
        tombstoned[entity.name] = found
        return found
    }
}
