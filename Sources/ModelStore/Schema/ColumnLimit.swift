import ModelSchema

/// SQLite's limit on the columns of one table (`SQLITE_MAX_COLUMN`, 2,000 as SQLite is built),
/// checked before a store is laid out: a hierarchy shares one table, so a deep inheritance chain
/// can exceed it, and laying such a chain out would copy each entity's inherited columns.
enum ColumnLimit {
    static let maximum = 2000

    /// The table name and column count of the first hierarchy whose table would have more than
    /// ``maximum`` columns: `Z_PK`, `Z_ENT`, `Z_OPT`, one per stored attribute with a column and
    /// one or two per stored to-one, counted in one pass with each entity's root found once.
    static func firstTooWide(_ version: ModelVersion) -> (table: String, columns: Int)? {
        var positions = [String: Int]()
        for (index, entity) in version.entities.enumerated() where positions[entity.name] == nil {
            positions[entity.name] = index
        }
        let hasSubentities = Set(version.entities.compactMap(\.parentEntityName))
        var roots = [Int?](repeating: nil, count: version.entities.count)
        var columns = [Int](repeating: 3, count: version.entities.count)
        for index in version.entities.indices where positions[version.entities[index].name] == index {
            var path = [index]
            var seen: Set<Int> = [index]
            while roots[path.last!] == nil,
                let parent = version.entities[path.last!].parentEntityName.flatMap({ positions[$0] }),
                seen.insert(parent).inserted
            {
                path.append(parent)
            }
            let root = roots[path.last!] ?? path.last!
            for position in path { roots[position] = root }
            let entity = version.entities[index]
            columns[root] += entity.attributes.filter { !$0.isTransient && ColumnType($0.type) != nil }.count
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                columns[root] += hasSubentities.contains(relationship.destinationEntityName) ? 2 : 1
            }
            if columns[root] > maximum {
                return ("Z" + version.entities[root].name.uppercased(), columns[root])
            }
        }
        return nil
    }
}
