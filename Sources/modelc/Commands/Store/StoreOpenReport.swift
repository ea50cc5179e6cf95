import Foundation
import ModelStack

/// What `store open` did, for people (standard output, errors on standard error) and as JSON;
/// every key is written, `null` included.
struct StoreOpenReport: Encodable {
    var store: String
    var version: String?
    var migratedFrom: String?
    var backup: String?
    var quarantinedTo: String?
    var retries = 0
    var error: PersistentStoreLoadError?

    init(store: String) {
        self.store = store
    }

    /// Takes in what the load did.
    mutating func record(_ report: StoreLoadReport) {
        version = report.version
        migratedFrom = report.migratedFrom
        backup = report.backupPath
        quarantinedTo = report.quarantinePath
        retries = report.retries
    }

    enum CodingKeys: String, CodingKey {
        case store, loaded, version, migratedFrom, backup, quarantinedTo, retries, error
    }

    enum ErrorKeys: String, CodingKey {
        case errorClass = "class", domain, code, message, storeVersion, modelVersion
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .store)
        try container.encode(error == nil, forKey: .loaded)
        try container.encode(version, forKey: .version)
        try container.encode(migratedFrom, forKey: .migratedFrom)
        try container.encode(backup, forKey: .backup)
        try container.encode(quarantinedTo, forKey: .quarantinedTo)
        try container.encode(retries, forKey: .retries)
        guard let error else {
            try container.encodeNil(forKey: .error)
            return
        }
        var nested = container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
        try nested.encode(error.kind.rawValue, forKey: .errorClass)
        try nested.encode(error.domain, forKey: .domain)
        try nested.encode(error.code, forKey: .code)
        try nested.encode(error.message, forKey: .message)
        try nested.encode(error.storeVersion, forKey: .storeVersion)
        try nested.encode(error.modelVersion, forKey: .modelVersion)
    }

    /// One line per thing done on standard output; the error on standard error.
    func printText() {
        if let error {
            let versions = error.storeVersion.map { " (store: '\($0)', model: '\(error.modelVersion ?? "")')" } ?? ""
            let line = "\(store): error: \(error.message)\(versions) [\(error.kind.rawValue), \(error.code)]\n"
            FileHandle.standardError.write(Data(line.utf8))
            return
        }
        if retries > 0 { print("\(store): waited for another process's lock (\(retries) retries)") }
        if let quarantinedTo { print("\(store): damaged; moved aside to \(quarantinedTo), a fresh store created") }
        if let migratedFrom { print("\(store): migrated from '\(migratedFrom)' to '\(version ?? "")'" + (backup.map { ", backup at \($0)" } ?? "")) }
        print("\(store): loaded at '\(version ?? "")'")
    }
}
