import Foundation

/// What the loader does when a store fails to load, per class, chosen by the app. The defaults
/// never lose data: a corrupted store is moved aside (never deleted) and replaced by a fresh one,
/// a locked store is retried until the description's timeout, and every other failure leaves
/// the store untouched and is reported.
public struct RecoveryPolicy: Sendable {
    /// What to do about one class of failure.
    public enum Action: String, Sendable, Equatable {
        /// Report the error; the store is not touched.
        case fail
        /// Move the store, `-wal`, `-shm` and external-data folder aside under a timestamped
        /// name, then create a fresh store.
        case quarantine
        /// Wait with growing delays and try again, until the description's timeout.
        case retry
    }

    /// The action for a class not in ``actions``: ``Action/fail``.
    public var actions: [PersistentStoreLoadError.Kind: Action]

    /// A policy of `actions`; by default, corrupted stores are quarantined and locked ones retried.
    public init(actions: [PersistentStoreLoadError.Kind: Action] = [.corrupted: .quarantine, .locked: .retry]) {
        self.actions = actions
    }

    /// The defaults: corrupted → quarantine, locked → retry, anything else → fail.
    public static let `default` = RecoveryPolicy()

    /// Every failure reported as it is: nothing moved, nothing retried.
    public static let failAlways = RecoveryPolicy(actions: [:])

    /// The action for `kind`. Only a corrupted store can be quarantined and only a locked one
    /// retried: any other pairing fails, so that no policy can move an incompatible store aside.
    public func action(for kind: PersistentStoreLoadError.Kind) -> Action {
        switch (kind, actions[kind] ?? .fail) {
        case (.corrupted, .quarantine): .quarantine
        case (.locked, .retry): .retry
        default: .fail
        }
    }
}

/// One thing the loader is about to do to a store, given first to the container's
/// ``PersistentContainer/decisionHandler``, which may veto it.
public enum LoadDecision: Sendable, CustomStringConvertible {
    /// Create a new store at `path` (it does not exist, or a corrupted one was moved aside).
    case create(path: String, version: String)
    /// Migrate the store at `path` from `from` to `to`.
    case migrate(path: String, from: String, to: String)
    /// Move the corrupted store aside; the error says why.
    case quarantine(path: String, error: PersistentStoreLoadError)
    /// Wait `delay` seconds and try again (attempt `attempt`); the error says why.
    case retry(path: String, attempt: Int, delay: TimeInterval, error: PersistentStoreLoadError)

    /// The decision in words: what, where, and from which version to which.
    public var description: String {
        switch self {
        case .create(let path, let version): "create \(path) at '\(version)'"
        case .migrate(let path, let from, let to): "migrate \(path) from '\(from)' to '\(to)'"
        case .quarantine(let path, let error): "quarantine \(path): \(error.message)"
        case .retry(let path, let attempt, let delay, _): "retry \(path) in \(delay) s (attempt \(attempt))"
        }
    }
}
