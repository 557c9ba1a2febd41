#if !canImport(Darwin)
/// Records changes so that they can be undone and redone: Foundation's `UndoManager`, which
/// Foundation on Linux lacks, with the same API for what a context needs. Give one to a
/// context (``ManagedObjectContext/undoManager``) and it records every change made there.
///
/// Undo is by groups: every action registered between ``beginUndoGrouping()`` and
/// ``endUndoGrouping()`` is undone by one ``undo()``. Foundation's manager closes a group at the
/// end of each run-loop pass when ``groupsByEvent`` is true; Linux programs have no such pass,
/// so an action registered while no group is open here makes a group of its own (a context
/// registers one per processed change event, see
/// ``ManagedObjectContext/processPendingChanges()``).
///
/// ```swift
/// let undoManager = UndoManager()
/// context.undoManager = undoManager
/// undoManager.beginUndoGrouping()
/// team.wins = 3
/// team.teamName = "Brazil"
/// undoManager.endUndoGrouping()
/// undoManager.undo()        // both changes are undone
/// undoManager.redo()        // and made again
/// ```
///
/// Where Foundation raises an exception (undo with a group still open, ending a group that
/// was not begun), this one does nothing and logs why.
public final class UndoManager {
    private struct Action {
        let perform: () -> Void
        let target: ObjectIdentifier
    }

    private struct Group {
        var actions: [Action] = []
        var name = ""
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// Groups begun and not ended yet, innermost last.
    private var openGroups: [Group] = []
    /// What the actions registered while undoing or redoing go into.
    private var collecting: Group?
    private var disabledCount = 0
    /// Run before a group begins or ends, and before an undo or redo: what Foundation's
    /// checkpoint notification tells, so that contexts process their pending changes into the
    /// group they were made in.
    private var checkpointHandlers: [ObjectIdentifier: () -> Void] = [:]

    /// Whether an action registered with no group open makes a group of its own (true, the
    /// default) or is refused (false).
    public var groupsByEvent = true

    /// How many groups ``undo()`` keeps; 0 (the default) for no limit.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }

    /// Whether an undo is running (its actions register what redoes it).
    public private(set) var isUndoing = false

    /// Whether a redo is running (its actions register what undoes it again).
    public private(set) var isRedoing = false

    public init() {}

    /// How many groups are open.
    public var groupingLevel: Int { openGroups.count }

    public var canUndo: Bool { !undoStack.isEmpty }

    public var canRedo: Bool { !redoStack.isEmpty }

    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// The name given to the group ``undo()`` undoes.
    public var undoActionName: String { undoStack.last?.name ?? "" }

    /// The name given to the group ``redo()`` redoes.
    public var redoActionName: String { redoStack.last?.name ?? "" }

    // MARK: Groups

    public func beginUndoGrouping() {
        checkpoint()
        openGroups.append(Group())
    }

    public func endUndoGrouping() {
        checkpoint()
        guard let group = openGroups.popLast() else {
            Log.context.error("UndoManager.endUndoGrouping() without a group begun; nothing done")
            return
        }
        if openGroups.isEmpty {
            push(group)
        } else {
            openGroups[openGroups.count - 1].actions += group.actions
        }
    }

    /// Names the innermost open group (or the last closed one), for an Undo menu item.
    public func setActionName(_ name: String) {
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].name = name
        } else if collecting != nil {
            collecting?.name = name
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].name = name
        }
    }

    // MARK: Registering

    /// Registers what undoes a change: `handler` runs with `target` when the change is undone.
    /// The manager does not keep `target` alive; an action whose target is gone is skipped.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        let action = Action(perform: { [weak target] in target.map(handler) }, target: ObjectIdentifier(target))
        if collecting != nil {
            collecting?.actions.append(action)
        } else if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].actions.append(action)
        } else if groupsByEvent {
            push(Group(actions: [action]))
        } else {
            Log.context.error("UndoManager: an action was registered with no group open and groupsByEvent false; it is dropped")
        }
    }

    public func disableUndoRegistration() {
        disabledCount += 1
    }

    public func enableUndoRegistration() {
        disabledCount = max(0, disabledCount - 1)
    }

    public func removeAllActions() {
        undoStack = []
        redoStack = []
    }

    /// Forgets the actions registered for `target`.
    public func removeAllActions(withTarget target: AnyObject) {
        let id = ObjectIdentifier(target)
        func filtered(_ stack: [Group]) -> [Group] {
            stack.map { Group(actions: $0.actions.filter { $0.target != id }, name: $0.name) }.filter { !$0.actions.isEmpty }
        }
        undoStack = filtered(undoStack)
        redoStack = filtered(redoStack)
    }

    // MARK: Undoing

    /// Undoes the last group; what its actions register becomes the group ``redo()`` redoes.
    public func undo() {
        guard let redo = replayLastGroup(undoing: true) else { return }
        redoStack.append(redo)
    }

    /// Redoes the last undone group; what its actions register can be undone again.
    public func redo() {
        guard let undo = replayLastGroup(undoing: false) else { return }
        undoStack.append(undo)
        trim()
    }

    /// Takes the last group of the undo (or redo) stack and runs it; returns what its actions
    /// registered, nil if nothing.
    private func replayLastGroup(undoing: Bool) -> Group? {
        checkpoint()
        guard openGroups.isEmpty else {
            Log.context.error("UndoManager.\(undoing ? "undo" : "redo")() with \(openGroups.count) group(s) still open; end them first")
            return nil
        }
        guard let group = undoing ? undoStack.popLast() : redoStack.popLast() else { return nil }
        if undoing { isUndoing = true } else { isRedoing = true }
        let registered = run(group)
        isUndoing = false
        isRedoing = false
        return registered.actions.isEmpty ? nil : registered
    }

    // MARK: Checkpoints

    /// Runs `handler` at every checkpoint until removed; one handler per owner.
    func addCheckpointHandler(for owner: AnyObject, _ handler: @escaping () -> Void) {
        checkpointHandlers[ObjectIdentifier(owner)] = handler
    }

    func removeCheckpointHandler(for owner: AnyObject) {
        checkpointHandlers[ObjectIdentifier(owner)] = nil
    }

    private func checkpoint() {
        for handler in checkpointHandlers.values { handler() }
    }

    /// Runs a group's actions last first, collecting what they register under the group's name.
    private func run(_ group: Group) -> Group {
        collecting = Group(name: group.name)
        for action in group.actions.reversed() { action.perform() }
        let collected = collecting ?? Group()
        collecting = nil
        return collected
    }

    /// A new group of changes: it can be undone, and what was undone before can no longer be redone.
    private func push(_ group: Group) {
        guard !group.actions.isEmpty else { return }
        undoStack.append(group)
        if !isRedoing { redoStack = [] }
        trim()
    }

    private func trim() {
        if levelsOfUndo > 0, undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }
}
#endif
