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

    /// Compares the original and the migrated store; returns how many values were compared.
    @discardableResult
    func verify(original: String, migrated: String, framework: FrameworkVersion) throws -> Int {
        let before = StoreLayout(chain[0], framework: framework)
        let after = StoreLayout(chain[chain.count - 1], framework: framework)
        let old = try DatabaseQueue(path: original, configuration: Self.readOnly)
        let new = try DatabaseQueue(path: migrated, configuration: Self.readOnly)
        var compared = 0
        for (first, last) in entities {
            guard let from = before.entity(named: first), let to = after.entity(named: last) else { continue }
            let oldRows = try old.read { try Int.fetchAll($0, sql: "SELECT Z_PK FROM \(from.table.quotedDatabaseIdentifier) WHERE Z_ENT = \(from.number) ORDER BY Z_PK") }
            let newRows = try new.read { try Int.fetchAll($0, sql: "SELECT Z_PK FROM \(to.table) WHERE Z_ENT = \(to.number) ORDER BY Z_PK") }
            #expect(oldRows == newRows, "rows of \(first) → \(last)")
        }
        for trail in trails {
            guard let from = before.entity(named: trail.sourceEntity), let to = after.entity(named: trail.entity),
                let oldColumn = from.columns[trail.sourceProperty], let newColumn = to.columns[trail.property]
            else { continue }
            let oldValues = try old.read { db in
                try Row.fetchAll(db, sql: "SELECT Z_PK, \(oldColumn) AS v FROM \(from.table.quotedDatabaseIdentifier) WHERE Z_ENT = \(from.number) AND \(oldColumn) IS NOT NULL")
                    .map { ($0["Z_PK"] as Int, ($0["v"] as DatabaseValue)) }
            }
            let newValues = try new.read { db in
                Dictionary(
                    try Row.fetchAll(db, sql: "SELECT Z_PK, \(newColumn) AS v FROM \(to.table) WHERE Z_ENT = \(to.number)")
                        .map { ($0["Z_PK"] as Int, ($0["v"] as DatabaseValue)) }, uniquingKeysWith: { a, _ in a })
            }
            for (key, value) in oldValues {
                #expect(newValues[key] == value, "\(trail.sourceEntity).\(trail.sourceProperty) of row \(key)")
                compared += 1
            }
        }
        return compared
    }

    static let readOnly: GRDB.Configuration = {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        return configuration
    }()
}
