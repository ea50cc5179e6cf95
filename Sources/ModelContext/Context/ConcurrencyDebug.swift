import Foundation

/// modelc's checked mode, its counterpart of Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`:
/// when on, every use of a context's object graph (fetch, save, insert, a managed object's
/// property read or write...) from off the context's queue stops the process at once, naming the
/// context and the call, instead of racing with the queue. On by default in debug builds (and so in
/// `swift test`), off in release builds; the environment variable `MODELC_CONCURRENCY_DEBUG` set to
/// `1` or `0` turns it on or off whatever the build. Read once, so that a release build pays one
/// cached `Bool` per checked call.
public enum ConcurrencyDebug {
    /// Whether wrong-queue use stops the process.
    public static let isEnabled: Bool = {
        switch ProcessInfo.processInfo.environment["MODELC_CONCURRENCY_DEBUG"] {
        case "1"?: return true
        case "0"?: return false
        default:
            #if DEBUG
                return true
            #else
                return false
            #endif
        }
    }()

    /// Stops the process: `call` was made on `context` from off its queue.
    static func stop(_ context: ManagedObjectContext, _ type: String, _ call: StaticString) -> Never {
        let name = context.name.map { "\"\($0)\"" } ?? "\(ObjectIdentifier(context))"
        let queue = context.concurrencyType == .mainQueueConcurrencyType ? "the main queue" : "its private queue"
        fatalError(
            "modelc concurrency debug: \(type).\(call) on context \(name) from off \(queue); use it inside perform or performAndWait (MODELC_CONCURRENCY_DEBUG=0 turns this check off)")
    }
}

extension ManagedObjectContext {
    /// Stops the process when checked mode is on and the caller is off the context's queue.
    @inline(__always)
    func checkQueue(_ call: StaticString = #function) {
        if ConcurrencyDebug.isEnabled, !isOnQueue { ConcurrencyDebug.stop(self, "ManagedObjectContext", call) }
    }
}

extension ManagedObject {
    /// Stops the process when checked mode is on and the caller is off the queue of the
    /// object's context (an object without a context is anyone's).
    @inline(__always)
    func checkQueue(_ call: StaticString = #function) {
        if ConcurrencyDebug.isEnabled, let context = managedObjectContext, !context.isOnQueue { ConcurrencyDebug.stop(context, "ManagedObject", call) }
    }
}
