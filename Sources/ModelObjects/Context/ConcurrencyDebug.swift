import Foundation
import Synchronization

/// modelc's checked mode, its counterpart of Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`:
/// when on, every use of a context's object graph (fetch, save, insert, a managed object's
/// property read or write...) from off the context's queue is a ``ConcurrencyViolation``, handed
/// to ``violationHandler`` and kept from racing with the queue: a call that throws (fetch, save,
/// execute...) throws it, any other runs on the context's queue and waits for it. On by default in
/// debug builds (and so in `swift test`), off in release builds; the environment variable
/// `MODELC_CONCURRENCY_DEBUG` set to `1` or `0` turns it on or off whatever the build. Read once,
/// so that a release build pays one cached `Bool` per checked call.
public enum ConcurrencyDebug {
    /// Whether wrong-queue use is checked.
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

    /// What is done with each violation, on the thread that made it, before the call throws or
    /// goes on on the context's queue. The default writes the report to standard error, once per
    /// call; an app that wants Core Data's behaviour, where checked mode ends the process, sets a
    /// handler that ends it, and a test can collect the reports.
    public static var violationHandler: @Sendable (ConcurrencyViolation) -> Void {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    private static let handler = Mutex<@Sendable (ConcurrencyViolation) -> Void>(ConcurrencyDebug.writeOnce)
    /// The calls already written by the default handler.
    private static let written = Mutex<Set<String>>([])

    /// The default handler: the report on standard error, the first time each call violates.
    @Sendable private static func writeOnce(_ violation: ConcurrencyViolation) {
        guard written.withLock({ $0.insert("\(violation.receiver).\(violation.call)").inserted }) else { return }
        FileHandle.standardError.write(Data((violation.description + "\n").utf8))
    }

    /// Hands `call` on `context`, made from off its queue, to the handler, and returns it.
    static func report(_ context: ManagedObjectContext, _ receiver: String, _ call: StaticString) -> ConcurrencyViolation {
        let violation = ConcurrencyViolation(
            receiver: receiver, call: "\(call)", contextName: context.name,
            contextIdentifier: "\(ObjectIdentifier(context))", isMainQueue: context.concurrencyType == .mainQueueConcurrencyType)
        violationHandler(violation)
        return violation
    }
}

/// One use of a context or of its objects from off the context's queue, as checked mode
/// (``ConcurrencyDebug``) reports it: which call, on which context. Thrown as an `NSError` in
/// `NSCocoaErrorDomain` with code 134060 (`NSCoreDataError`) by the calls that throw.
public struct ConcurrencyViolation: Sendable, CustomStringConvertible {
    /// The user-info key under which the error of a violation carries its description.
    public static let errorKey = "ModelcConcurrencyViolation"

    /// `ManagedObjectContext` or `ManagedObject`.
    public let receiver: String
    /// The method or property used, as Swift names it (`fetch(_:)`, `value(forKey:)`).
    public let call: String
    /// The context's ``ManagedObjectContext/name``, when it has one.
    public let contextName: String?
    /// The context's identity, which tells unnamed contexts apart.
    public let contextIdentifier: String
    /// Whether the context is a main-queue one.
    public let isMainQueue: Bool

    /// The report: the call, the context and its queue, and how to fix it.
    public var description: String {
        let context = contextName.map { "\"\($0)\"" } ?? contextIdentifier
        let queue = isMainQueue ? "the main queue" : "its private queue"
        return "modelc concurrency debug: \(receiver).\(call) on context \(context) from off \(queue); "
            + "use it inside perform or performAndWait (MODELC_CONCURRENCY_DEBUG=0 turns this check off)"
    }

    /// The violation as the error the calls that throw throw.
    public var error: NSError {
        ContextError.make(134060, description, [Self.errorKey: description])
    }
}

extension ManagedObjectContext {
    /// Whether checked mode is on and the caller is off the context's queue, in which case the
    /// violation has been reported: the caller then runs its call again through ``onQueue(_:)``.
    @inline(__always)
    func violatesQueue(_ call: StaticString = #function) -> Bool {
        guard ConcurrencyDebug.isEnabled, !isOnQueue else { return false }
        _ = ConcurrencyDebug.report(self, "ManagedObjectContext", call)
        return true
    }

    /// Throws the reported violation when checked mode is on and the caller is off the context's queue.
    @inline(__always)
    func checkQueue(_ call: StaticString = #function) throws {
        guard ConcurrencyDebug.isEnabled, !isOnQueue else { return }
        throw ConcurrencyDebug.report(self, "ManagedObjectContext", call).error
    }
}

extension ManagedObject {
    /// The object's context when checked mode is on and the caller is off its queue, the
    /// violation reported (an object without a context is anyone's): the caller then runs its
    /// call again on that context's queue.
    @inline(__always)
    func violatedContext(_ call: StaticString = #function) -> ManagedObjectContext? {
        guard checksQueue, let context = managedObjectContext, !context.isOnQueue else { return nil }
        _ = ConcurrencyDebug.report(context, "ManagedObject", call)
        return context
    }
}
