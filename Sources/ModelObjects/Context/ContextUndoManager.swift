import Foundation

/// The undo manager of Foundation on Apple platforms (`UndoManager`, `NSUndoManager`), which
/// swift-corelibs-foundation does not have, so that on Linux the object layer gives this class that
/// name too: a recorder of undo operations in groups, that undoes the last group and records its
/// inverse for redo, as a context's ``ManagedObjectContext/undoManager`` uses it. With
/// ``groupsByEvent`` (the default) the first operation registered opens a group that the end of the
/// event closes; Apple's run loop ends events, and here a context ends them (the end of a `perform`
/// block, ``ManagedObjectContext/processPendingChanges()``, a main-queue context's next turn of the
/// main queue), as do ``undo()`` and ``redo()``. Misuse Foundation answers with an exception
/// (ending a group never begun, undoing with a nested group open) does nothing here. An undo
/// manager belongs to the queue of the context it serves and is not `Sendable`; targets are held
/// weakly, as `NSUndoManager` does not retain them. `registerUndo(withTarget:selector:object:)` and
/// `prepare(withInvocationTarget:)` need the Objective-C runtime and are left out.
open class ContextUndoManager {
    /// One recorded operation: its handler, for its target while the target lives.
    private struct Action {
        weak var target: AnyObject?
        let handler: (AnyObject) -> Void
    }

    /// An operation or a nested group, as a group holds them.
    private enum Item {
        case action(Action)
        case group(Group)
    }

    /// A group of operations undone together, with its action name.
    private final class Group {
        var items: [Item] = []
        var actionName = ""
        /// Whether the manager opened it itself (``groupsByEvent``), for the end of the event to close.
        let automatic: Bool

        init(automatic: Bool, actionName: String = "") {
            self.automatic = automatic
            self.actionName = actionName
        }

        /// Drops the operations for `target` (every operation when nil), and the nested groups left empty.
        func removeActions(for target: AnyObject?) {
            items = items.compactMap { item in
                switch item {
                case .action(let action):
                    return target == nil || action.target === target ? nil : item
                case .group(let group):
                    group.removeActions(for: target)
                    return group.items.isEmpty ? nil : item
                }
            }
        }
    }

    private enum State { case idle, undoing, redoing }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The groups open now, outermost first.
    private var openGroups: [Group] = []
    private var state = State.idle
    private var disabledCount = 0
    /// The contexts told before and after each undo and redo, to announce what changed.
    private var contexts: [WeakContext] = []

    private struct WeakContext {
        weak var context: ManagedObjectContext?
    }

    /// Whether the first operation registered outside a group opens one that the end of the event
    /// closes; true by default. When false, groups are begun and ended by the app.
    open var groupsByEvent = true
    /// The most top-level groups each stack holds (the oldest are dropped first); 0, the default, for no limit.
    open var levelsOfUndo = 0 {
        didSet { trim() }
    }

    /// An undo manager with empty stacks that groups by event.
    public init() {}

    // MARK: - State

    /// How many groups are open.
    open var groupingLevel: Int { openGroups.count }
    /// Whether an undo is running its operations.
    open var isUndoing: Bool { state == .undoing }
    /// Whether a redo is running its operations.
    open var isRedoing: Bool { state == .redoing }
    /// Whether operations registered now are recorded (no `disableUndoRegistration()` in force).
    open var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Whether there is a group to undo: a closed one, or operations in the open group the next undo closes.
    open var canUndo: Bool { !undoStack.isEmpty || openGroups.first.map { !$0.items.isEmpty } == true }

    /// Whether there is a group to redo; posts a checkpoint, as Foundation's does.
    open var canRedo: Bool {
        post(.NSUndoManagerCheckpoint)
        return !redoStack.isEmpty
    }

    /// The name of the action the next undo reverses; empty when unnamed or none.
    open var undoActionName: String {
        if state == .idle, let open = openGroups.first, !open.items.isEmpty { return open.actionName }
        return undoStack.last?.actionName ?? ""
    }

    /// The name of the action the next redo repeats; empty when unnamed or none.
    open var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// Names the group being recorded (the open one, else the last closed one), for Undo and Redo
    /// menu titles.
    open func setActionName(_ actionName: String) {
        if let open = openGroups.first {
            open.actionName = actionName
        } else if state != .undoing, let last = undoStack.last {
            last.actionName = actionName
        }
    }

    // MARK: - Registering

    /// Records `handler` to be called with `target` when the current group is undone (or redone,
    /// while undoing). Outside a group, one is opened when ``groupsByEvent``; otherwise nothing is
    /// recorded. Registering outside undo and redo clears the redo stack.
    open func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard disabledCount == 0 else { return }
        if openGroups.isEmpty {
            guard groupsByEvent else { return }
            open(Group(automatic: true))
        }
        if state == .idle { redoStack.removeAll() }
        let action = Action(target: target) { object in
            if let target = object as? Target { handler(target) }
        }
        openGroups[openGroups.count - 1].items.append(.action(action))
    }

    /// Stops recording operations until a matching ``enableUndoRegistration()``; calls nest.
    open func disableUndoRegistration() { disabledCount += 1 }

    /// Undoes one ``disableUndoRegistration()``.
    open func enableUndoRegistration() { disabledCount = max(0, disabledCount - 1) }

    // MARK: - Grouping

    /// Opens a group, nested in the open one if any: its operations are undone together.
    open func beginUndoGrouping() {
        if !openGroups.isEmpty { post(.NSUndoManagerCheckpoint) }
        open(Group(automatic: false))
    }

    /// Closes the innermost open group (nothing when none is open).
    open func endUndoGrouping() {
        guard let group = openGroups.last else { return }
        post(.NSUndoManagerCheckpoint)
        post(.NSUndoManagerWillCloseUndoGroup)
        openGroups.removeLast()
        if !group.items.isEmpty {
            if let parent = openGroups.last {
                parent.items.append(.group(group))
            } else {
                push(group, undoing: state != .undoing)
            }
        }
        post(.NSUndoManagerDidCloseUndoGroup)
    }

    /// Ends the event: closes the group ``groupsByEvent`` opened, if it is the only one open.
    func endEvent() {
        if groupsByEvent, openGroups.count == 1, openGroups[0].automatic { endUndoGrouping() }
    }

    private func open(_ group: Group) {
        openGroups.append(group)
        post(.NSUndoManagerDidOpenUndoGroup)
    }

    // MARK: - Undoing and redoing

    /// Closes the group the event opened, then undoes the last group, recording its inverse for
    /// redo; with another group open, does nothing.
    open func undo() {
        endEvent()
        guard openGroups.isEmpty else { return }
        undoNestedGroup()
    }

    /// Undoes the last group: the last nested group of the open group when it ends with one,
    /// else the last closed top-level group.
    open func undoNestedGroup() {
        post(.NSUndoManagerCheckpoint)
        if let open = openGroups.last {
            guard case .group(let nested)? = open.items.last else { return }
            open.items.removeLast()
            perform(nested, as: .undoing)
        } else if let group = undoStack.popLast() {
            perform(group, as: .undoing)
        }
    }

    /// Repeats the last group undone, recording its inverse for undo; with a group open, first
    /// closes the one the event opened, and does nothing if another stays open.
    open func redo() {
        endEvent()
        guard openGroups.isEmpty else { return }
        post(.NSUndoManagerCheckpoint)
        guard let group = redoStack.popLast() else { return }
        perform(group, as: .redoing)
    }

    /// Runs `group`'s operations last first, recording what they register as one group on the
    /// other stack, under the same action name.
    private func perform(_ group: Group, as action: State) {
        let undoing = action == .undoing
        post(undoing ? .NSUndoManagerWillUndoChange : .NSUndoManagerWillRedoChange)
        let liveContexts = contexts.compactMap(\.context)
        for context in liveContexts { context.willUndoOrRedo() }
        let outer = openGroups
        let inverse = Group(automatic: false, actionName: group.actionName)
        openGroups = [inverse]
        state = action
        run(group)
        openGroups = outer
        state = .idle
        if !inverse.items.isEmpty { push(inverse, undoing: !undoing) }
        for context in liveContexts { context.didUndoOrRedo() }
        post(undoing ? .NSUndoManagerDidUndoChange : .NSUndoManagerDidRedoChange)
    }

    private func run(_ group: Group) {
        for item in group.items.reversed() {
            switch item {
            case .action(let action):
                if let target = action.target { action.handler(target) }
            case .group(let nested):
                run(nested)
            }
        }
    }

    /// Puts a closed top-level group on the undo stack (else the redo stack), within ``levelsOfUndo``.
    private func push(_ group: Group, undoing: Bool) {
        if undoing { undoStack.append(group) } else { redoStack.append(group) }
        trim()
    }

    private func trim() {
        guard levelsOfUndo > 0 else { return }
        if undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
        if redoStack.count > levelsOfUndo { redoStack.removeFirst(redoStack.count - levelsOfUndo) }
    }

    // MARK: - Clearing

    /// Empties both stacks and the open groups, and enables registration again, as Foundation's does.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.removeAll()
        disabledCount = 0
    }

    /// Removes the operations recorded for `target` from both stacks and the open groups.
    open func removeAllActions(withTarget target: AnyObject) {
        for group in undoStack + redoStack + openGroups { group.removeActions(for: target) }
        undoStack.removeAll { $0.items.isEmpty }
        redoStack.removeAll { $0.items.isEmpty }
    }

    // MARK: - Contexts

    /// Tells `context` before and after each undo and redo (it announces their changes then).
    func attach(_ context: ManagedObjectContext) {
        contexts.removeAll { $0.context == nil }
        guard !contexts.contains(where: { $0.context === context }) else { return }
        contexts.append(WeakContext(context: context))
    }

    private func post(_ name: Notification.Name) {
        NotificationCenter.default.post(name: name, object: self)
    }
}

/// The undo manager's notifications, under the names Swift gives Foundation's.
extension Notification.Name {
    /// Posted when a group opens or closes (except a top-level one opening) and when ``ContextUndoManager/canRedo`` is read.
    public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")
    /// Posted by an undo manager after a group opens.
    public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted by an undo manager before a group closes.
    public static let NSUndoManagerWillCloseUndoGroup = Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    /// Posted by an undo manager after a group closes.
    public static let NSUndoManagerDidCloseUndoGroup = Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
    /// Posted by an undo manager before an undo runs.
    public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted by an undo manager after an undo ran.
    public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted by an undo manager before a redo runs.
    public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted by an undo manager after a redo ran.
    public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")
}
