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
/// left as it was, and the object stays without a registrar until a tracked read.
///
/// The count is the process's: another thread's tracked read at the same moment can make an
/// untracked one look tracked, and that object then makes a registrar it does not need, as every
/// read object did before; a tracked read is never missed. Observation's way of keeping its
/// trackers is checked once, when first needed; if `access` stops hashing the key paths it is
/// given, or where the platform has no thread-local storage the probe can use, every object read
/// makes its registrar, as before.
enum ObservationProbe {
    /// The hashes of ``Token``s so far, in every thread.
    private static let hashes = Atomic<Int>(0)

    /// The argument of the probe's key path: its hash and equality count their calls.
    struct Token: Hashable, Sendable {
        func hash(into hasher: inout Hasher) { ObservationProbe.hashes.add(1, ordering: .relaxed) }

        static func == (lhs: Token, rhs: Token) -> Bool {
            ObservationProbe.hashes.add(1, ordering: .relaxed)
            return true
        }
    }

    /// The key path a spare registrar is read through.
    private static let keyPath: ManagedObject.ObservedKeyPath = \ManagedObject.[observationProbe: Token()]

    /// The registrar `object` needs for a read now, nil when no tracker is reading it.
    static func registrar(forReadOf object: ManagedObject) -> ObservationBox? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Android) || canImport(Darwin)
        guard let spares = ThreadSpares.shared else { return ObservationBox() }
        let before = hashes.load(ordering: .relaxed)
        // Used where the slot holds it, without a retain and a release of its own: the slot
        // keeps it, and nothing in between can take it out.
        let spare = spares.spare()
        spare._withUnsafeGuaranteedRef { $0.access(object, keyPath) }
        guard hashes.load(ordering: .relaxed) != before else { return nil }
        return spares.adopt(spare)
        #else
        return ObservationBox()
        #endif
    }

    /// Whether a tracked `access` hashes the key path it is given on this runtime.
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

#if canImport(Glibc) || canImport(Musl) || canImport(Android) || canImport(Darwin)
/// Each thread's spare registrar, kept in a POSIX thread-specific slot that holds one retain of
/// it and releases it when the thread ends.
private struct ThreadSpares: Sendable {
    private let key: pthread_key_t

    /// The slot, nil when none can be made or when the probe cannot tell a tracked read.
    static let shared: ThreadSpares? = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, { release($0) }) == 0 else { return nil }
        guard ObservationProbe.hashesTrackedKeyPaths else {
            pthread_key_delete(key)
            return nil
        }
        return ThreadSpares(key: key)
    }()

    /// Lets go of the spare of a thread that ended.
    private static func release(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return }
        Unmanaged<ObservationBox>.fromOpaque(raw).release()
    }

    /// The calling thread's spare, made when it has none, as the slot's reference to it.
    func spare() -> Unmanaged<ObservationBox> {
        if let raw = pthread_getspecific(key) { return Unmanaged.fromOpaque(raw) }
        let spare = Unmanaged.passRetained(ObservationBox())
        pthread_setspecific(key, spare.toOpaque())
        return spare
    }

    /// Takes `spare`, the calling thread's, from the slot, for an object to keep.
    func adopt(_ spare: Unmanaged<ObservationBox>) -> ObservationBox {
        pthread_setspecific(key, nil)
        return spare.takeRetainedValue()
    }
}
#endif
