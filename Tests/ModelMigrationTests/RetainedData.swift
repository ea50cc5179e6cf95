import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing

/// Checks that a migrated store still holds every row and every retained value of the original:
/// entities and properties are followed through each step's mapping, and each value is compared
/// row by row (by primary key) between the original and the migrated store.
struct RetainedData {
    /// A stored property followed from the first version to the last.
    struct Trail: Hashable {
        var sourceEntity: String
        var sourceProperty: String
        var entity: String
        var property: String
    }

    let chain: [ModelVersion]
    let mappings: [InferredMapping]

    init(chain: [ModelVersion]) {
        self.chain = chain
        let hashes = chain.map { VersionHasher($0).entityHashes() }
        mappings = chain.indices.dropLast().map {
            MappingInference.infer(from: chain[$0], to: chain[$0 + 1], sourceHashes: hashes[$0], destinationHashes: hashes[$0 + 1])
        }
    }

    /// Entities present at both ends: first-version name → last-version name.
    var entities: [String: String] {
        var result = [String: String]()
        for entity in chain.first?.entities ?? [] {
            var name: String? = entity.name
            for mapping in mappings {
                name = name.flatMap { current in mapping.entities.first { $0.source == current }?.destination }
            }
            if let name { result[entity.name] = name }
        }
        return result
    }

    /// Stored attributes and to-one relationships kept at every step without losing values.
    var trails: [Trail] {
        var result = [Trail]()
        for (first, last) in entities {
            guard let layout = StoreLayout(chain[0]).entity(named: first) else { continue }
            for property in layout.columns.keys {
                var entity: String? = first, name: String? = property
                for mapping in mappings {
                    guard let current = entity, let entityMapping = mapping.entities.first(where: { $0.source == current }),
                        let propertyMapping = entityMapping.properties.first(where: { $0.source == name && $0.destination != nil }),
                        !propertyMapping.dropsData
                    else { entity = nil; break }
                    entity = entityMapping.destination
                    name = propertyMapping.destination
                }
                if let entity, let name, entity == last { result.append(Trail(sourceEntity: first, sourceProperty: property, entity: entity, property: name)) }
            }
        }
        return result.sorted { ($0.sourceEntity, $0.sourceProperty) < ($1.sourceEntity, $1.sourceProperty) }
    }

    /// Compares the original and the migrated store inside SQLite (the original attached, rows
    /// matched by primary key); returns how many values were compared.
    @discardableResult
    func verify(original: String, migrated: String, framework: FrameworkVersion) throws -> Int {
        let before = StoreLayout(chain[0], framework: framework)
        let after = StoreLayout(chain[chain.count - 1], framework: framework)
        let queue = try DatabaseQueue(path: migrated, configuration: Self.readOnly)
        return try queue.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS original", arguments: ["file:\(original)?mode=ro"])
            defer { try? db.execute(sql: "DETACH DATABASE original") }
            var compared = 0
            for (first, last) in entities {
                guard let from = before.entity(named: first), let to = after.entity(named: last) else { continue }
                let missing = try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM (SELECT Z_PK FROM original.\(from.table.quotedDatabaseIdentifier) WHERE Z_ENT = \(from.number)
                        EXCEPT SELECT Z_PK FROM main.\(to.table) WHERE Z_ENT = \(to.number))
                        """) ?? -1
                #expect(missing == 0, "rows of \(first) → \(last)")
            }
            for trail in trails {
                guard let from = before.entity(named: trail.sourceEntity), let to = after.entity(named: trail.entity),
                    let oldColumn = from.columns[trail.sourceProperty], let newColumn = to.columns[trail.property]
                else { continue }
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT COUNT(*) FROM (SELECT Z_PK, \(oldColumn) FROM original.\(from.table.quotedDatabaseIdentifier)
                                WHERE Z_ENT = \(from.number) AND \(oldColumn) IS NOT NULL
                            EXCEPT SELECT Z_PK, \(newColumn) FROM main.\(to.table) WHERE Z_ENT = \(to.number))) AS lost,
                            (SELECT COUNT(\(oldColumn)) FROM original.\(from.table.quotedDatabaseIdentifier) WHERE Z_ENT = \(from.number)) AS total
                        """)
                #expect(row?["lost"] == 0, "\(trail.sourceEntity).\(trail.sourceProperty) → \(trail.entity).\(trail.property)")
                compared += row?["total"] ?? 0
            }
            return compared
        }
    }

    static let readOnly: GRDB.Configuration = {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        return configuration
    }()
}
