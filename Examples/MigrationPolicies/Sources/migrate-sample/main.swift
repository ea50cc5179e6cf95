import Foundation
import ModelCompiler
import ModelMigration
import ModelSchema
import ModelStore
import ModelXML

/// `migrate-sample STORE MODEL MAPPINGS`: migrates the store in place through the mapping model
/// of the MAPPINGS folder whose source hashes are the store's, to the model version its
/// destination hashes match, with the Swift port of `V2to3MakerPolicy` registered. Exits 0 only
/// when the store was migrated.
func run(_ arguments: [String]) throws -> Int32 {
    guard arguments.count == 3 else {
        FileHandle.standardError.write(Data("usage: migrate-sample STORE MODEL MAPPINGS\n".utf8))
        return 64
    }
    let (store, modelPath, mappings) = (arguments[0], arguments[1], arguments[2])
    guard let bundle = ModelReader().read(at: modelPath).bundle else {
        FileHandle.standardError.write(Data("\(modelPath): cannot read the model\n".utf8))
        return 1
    }
    let storeHashes = try StoreMetadata.read(at: store).versionHashes
    let candidates = MappingModelFinder.mappingModels(at: mappings).compactMap { MappingCompilation.read(at: $0).model }
    guard let mapping = candidates.first(where: { MappingModel.recorded($0.sourceEntityHashes, areIn: storeHashes) }) else {
        FileHandle.standardError.write(Data("\(store): no mapping model in \(mappings) starts at the store's version\n".utf8))
        return 1
    }
    var registry = PolicyRegistry()
    registry.register(className: "V2to3MakerPolicy") { MakerPolicy() }
    let result = try MigrationManager(bundle: bundle, mappingModel: mapping, registry: registry).migrate(storeAt: store)
    print("\(store): \(result.storeVersion) → \(result.destination) through \(mapping.name): \(result.outcome.rawValue)")
    for report in result.entityMappings {
        print("  \(report.name): \(report.instancesCreated) created, \(report.relationshipsSet) links set")
    }
    return result.outcome == .migrated ? 0 : 1
}

do {
    exit(try run(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
