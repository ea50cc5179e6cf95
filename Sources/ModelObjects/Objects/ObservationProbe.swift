#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif
import Observation
import Synchronization

/// Finds whether an observer is tracking reads on the calling thread (`withObservationTracking`'s
/// apply closure, an `Observations` sequence), so that only objects read while tracked make an
/// Observation registrar: a registrar is three allocations and 160 bytes, most of a fetched
/// object's cost when every object read made one.
///
/// Observation keeps the tracker of a thread in a thread-local of its own, which it does not
/// expose. A registrar's `access` adds the key path it is given to that tracker's set, hashing
/// it, and does nothing when no tracker is there. The probe's key path carries a ``Token`` that
/// counts its hashes, and a read registers it with the thread's spare registrar: when the count
/// moved, the read was tracked, the tracker now watches the spare, and the spare becomes the
/// object's registrar (the thread makes another when it next needs one). Untracked, the spare is
/// left as it was, and the object stays without a registrar until a tracked read. The spare is
/// the thread's own, not one registrar for the process: a tracker's observer stays with every
/// registrar it watches until the tracker is told of a change, and on a registrar shared by all
/// it would stay for good.
///
/// The count is the process's: another thread's tracked read at the same moment can make an
/// untracked one look tracked, and that object then makes a registrar it does not need, as every
/// read object did before; a tracked read is never missed. Observation's way of keeping its
/// trackers is checked once, when first needed; if `access` stops hashing the key paths it is
/// given, or where the platform has no thread-local storage the probe can use, every object read
/// makes its registrar, as before.
enum ObservationProbe {
    /// The hashes of ``Token``s so far, in every thread.
    fileprivate static let hashes = Atomic<Int>(0)

    /// The argument of the probe's key path: its hash and equality count their calls.
    struct Token: Hashable, Sendable {
        func hash(into hasher: inout Hasher) { ObservationProbe.hashes.add(1, ordering: .relaxed) }

        static func == (lhs: Token, rhs: Token) -> Bool {
            ObservationProbe.hashes.add(1, ordering: .relaxed)
            return true
        }
    }

    /// The key path a spare registrar is read through.
    fileprivate static let keyPath: ManagedObject.ObservedKeyPath = \ManagedObject.[observationProbe: Token()]

    /// The registrar `object` needs for a read now, nil when no tracker is reading it.
    static func registrar(forReadOf object: ManagedObject) -> ObservationBox? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Android) || canImport(Darwin)
        guard let spares = ThreadSpares.shared else { return ObservationBox() }
        return spares.spare().pointee.registrar(forReadOf: object)
        #else
        return ObservationBox()
        #endif
    }

    /// Asked twice through one key path, as reads reuse the probe's: were a key path to keep its
    /// hash once worked out, the second would find no tracker.
    fileprivate static let hashesTrackedKeyPaths: Bool = {
        let registrar = ObservationRegistrar()
        let probed = Probed()
        let keyPath = \Probed.[probe: Token()]
        for _ in 0..<2 {
            let before = hashes.load(ordering: .relaxed)
            withObservationTracking { registrar.access(probed, keyPath: keyPath) } onChange: {}
            guard hashes.load(ordering: .relaxed) != before else { return false }
        }
        return true
    }()

    /// A type read once, through a key path like the probe's, to check how Observation keeps its
    /// trackers.
    private final class Probed: Observable, Sendable {
        subscript(probe token: Token) -> Int { 0 }
    }
}

extension ManagedObject {
    /// The probe's property: nothing is read through it, only its key path is registered.
    subscript(observationProbe token: ObservationProbe.Token) -> Any? { nil }
}

/// A thread's spare registrar, made when first needed and given to the object whose read it
/// found tracked.
private struct Spare {
    private var registrar: ObservationBox?

    /// The spare, taken for `object`, when the read of `object` it registers is tracked; nil
    /// when it is not. `mutating`, so that the caller lends the spare in place: the read retains
    /// and releases nothing of its own.
    mutating func registrar(forReadOf object: ManagedObject) -> ObservationBox? {
        if registrar == nil { registrar = ObservationBox() }
        let before = ObservationProbe.hashes.load(ordering: .relaxed)
        registrar?.access(object, ObservationProbe.keyPath)
        guard ObservationProbe.hashes.load(ordering: .relaxed) != before else { return nil }
        return registrar.take()
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Android) || canImport(Darwin)
/// Each thread's ``Spare``, in memory of the thread's own that a POSIX thread-specific slot
/// points to: made on the thread's first probe, used by that thread alone, and deinitialized,
/// its spare released, when the thread ends. The spare itself is an ordinary strong reference.
private struct ThreadSpares: Sendable {
    private let key: pthread_key_t

    /// The slot, nil when none can be made or when the probe cannot tell a tracked read.
    static let shared: ThreadSpares? = {
        guard ObservationProbe.hashesTrackedKeyPaths else { return nil }
        var key = pthread_key_t()
        guard pthread_key_create(&key, { ended($0) }) == 0 else { return nil }
        return ThreadSpares(key: key)
    }()

    /// Lets go of the spare of a thread that ended, and of its memory.
    private static func ended(_ raw: UnsafeMutableRawPointer?) {
        guard let spare = raw?.assumingMemoryBound(to: Spare.self) else { return }
        spare.deinitialize(count: 1)
        spare.deallocate()
    }

    /// The calling thread's spare, made when it has none.
    func spare() -> UnsafeMutablePointer<Spare> {
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: Spare.self) }
        let spare = UnsafeMutablePointer<Spare>.allocate(capacity: 1)
        spare.initialize(to: Spare())
        pthread_setspecific(key, spare)
        return spare
    }
}
#endif
