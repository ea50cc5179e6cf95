import Foundation
import ModelSchema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new store made whole beside its path before it exists there (`modelc import` into a store
/// that does not exist yet): the store is made and filled under a staging name, then
/// ``commit()`` links it to its name, which fails rather than replace a store made meanwhile, so
/// the path never names half a store; ``discard()`` removes it and leaves nothing.
///
/// The staging file (`<store>.modelc-<UUID>`) is claimed (``StagingClaim``) from its creation to
/// its commit or discard: a run that cleans up beside the store once it exists (another import,
/// a migration) takes only unclaimed files for a dead run's, never this live one.
/// A change to an existing store is made in place instead, in one transaction
/// (``StoreTransaction``): a copy renamed onto a store would leave every other connection to it
/// writing to the replaced file.
package struct StoreStaging: Sendable {
    /// The store the staging file becomes.
    package let store: String
    /// The staging file.
    package let path: String
    /// The run's claim on the staging file, which tells other runs it is not a dead run's.
    private let claim: StagingClaim

    /// Claims a staging file beside `store` and writes in it the empty store of `version`, as
    /// ``StoreCreator`` creates one.
    package static func new(for store: String, version: ModelVersion) throws -> StoreStaging {
        try StoreCreator.refuseTooWide(version, path: store)
        let path = store + ".modelc-\(UUID().uuidString)"
        let staging = StoreStaging(store: store, path: path, claim: try StagingClaim(creating: path))
        do {
            try StoreError.mapping(path: store) {
                try StoreCreator.write(path, layout: StoreLayout(version), version: version, framework: .current, journalMode: .wal, uuid: UUID())
            }
        } catch {
            staging.discard()
            throw error
        }
        return staging
    }

    /// Removes the staging file and its sidecars, and lets go of the claim.
    package func discard() {
        StoreFiles(path: path).removeDatabaseAndSidecars()
        claim.release()
    }

    /// Gives the new store, which no connection may have open, its name; the staging file is
    /// discarded whether or not this throws.
    package func commit() throws {
        defer { discard() }
        guard link(path, store) == 0 else {
            if errno == EEXIST { throw StoreError.alreadyExists(path: store) }
            throw StoreError(.permissionDenied, code: 513, path: store, message: "cannot put the new store in place: \(String(cString: strerror(errno)))")
        }
    }
}
