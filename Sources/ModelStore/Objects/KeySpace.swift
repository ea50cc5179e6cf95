/// Where one store's primary keys sit among the keys of objects from several stores: a
/// coordinator's stores each number their rows from 1, so the object layer keys an object of
/// the store at place `n` by its `Z_PK` plus `n << 40` (a store's keys never reach 2^40), and
/// readers and writers of that store convert at the SQL boundary. The first store's keys are
/// its primary keys, so a single store needs no conversion at all.
package struct KeySpace: Sendable, Hashable {
    /// What is added to the store's primary keys.
    package let base: Int64

    /// The bits of a key that hold its primary key.
    package static let primaryKeyBits: Int64 = 40

    /// The key space of the first store, whose keys are its primary keys.
    package static let first = KeySpace(store: 0)

    /// The place of the first key space no coordinator's store has.
    static let firstForeignStore = 1 << 22

    /// The key space of the `number`th (from 0) store that IDs given to a coordinator name but the
    /// coordinator lacks: each such store its own, past every store's, so that IDs of two of them
    /// never share a key and none names a row here (after 2^22 of them the numbers come round).
    package init(foreignStore number: Int) {
        self.init(store: Self.firstForeignStore + number % Self.firstForeignStore)
    }

    /// The key space of the store at place `store` among a coordinator's stores.
    package init(store: Int) {
        base = Int64(store) << Self.primaryKeyBits
    }

    /// The key space a key of an object (a positive key) belongs to.
    package init(containing key: Int64) {
        base = key &- Self.primaryKey(of: key)
    }

    /// The place of the store a key of an object (a positive key) belongs to.
    package static func store(of key: Int64) -> Int {
        Int(key >> primaryKeyBits)
    }

    /// The primary key of a key of this store.
    package static func primaryKey(of key: Int64) -> Int64 {
        key & ((1 << primaryKeyBits) - 1)
    }

    /// The key of the store's row `primaryKey` (wrapping, never trapping, on a key no store
    /// reaches: a hostile file's).
    @inline(__always) package func key(_ primaryKey: Int64) -> Int64 { primaryKey &+ base }

    /// The store's primary key of `key`.
    @inline(__always) package func primaryKey(_ key: Int64) -> Int64 { key &- base }
}
