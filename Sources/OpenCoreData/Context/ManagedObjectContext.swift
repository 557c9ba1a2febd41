public import Foundation
import Dispatch
import Synchronization

/// A scratch pad of objects: Core Data's `NSManagedObjectContext`. It registers objects (one per
/// ID), tracks their changes, saves them to its parent (a coordinator's store, or a parent
/// context) and tells observers what changed.
///
/// A context is confined to a queue. A main-queue context is used on the main queue (or inside
/// ``performAndWait(_:)``); a private-queue context only inside ``perform(_:)`` or
/// ``performAndWait(_:)``:
///
/// ```swift
/// let background = container.newBackgroundContext()
/// background.perform {
///     let team = Team(context: background)
///     team.teamName = "Brazil"
///     try? background.save()
/// }
/// ```
///
/// Using a context off its queue stops the program with a message saying so, instead of
/// corrupting the object graph.
public final class ManagedObjectContext: @unchecked Sendable, CustomStringConvertible {
    /// Which queue a context runs on, with Core Data's names.
    public enum ConcurrencyType: Sendable {
        /// The main queue; UI code uses this context directly.
        case mainQueueConcurrencyType
        /// A private serial queue; use the context inside `perform` blocks.
        case privateQueueConcurrencyType

        public static var mainQueue: ConcurrencyType { .mainQueueConcurrencyType }
        public static var privateQueue: ConcurrencyType { .privateQueueConcurrencyType }
    }

    /// The context's queue type.
    public let concurrencyType: ConcurrencyType

    /// A name for logs and debugging, recorded as the ``PersistentHistoryTransaction/contextName``
    /// of the context's saves.
    public var name: String?

    /// Your own information about the context, as Core Data's `userInfo`: a mutable dictionary the
    /// library never reads. Use it on the context's queue.
    ///
    /// ```swift
    /// context.userInfo["importRun"] = runID
    /// ```
    public let userInfo = NSMutableDictionary()

    /// Who the context's saves are by, recorded as their
    /// ``PersistentHistoryTransaction/author`` in the store's persistent history: set it to tell
    /// your own saves from others' when reading history (`"app"`, `"importer"`, `"widget"`).
    public var transactionAuthor: String?

    /// How ``save()`` resolves rows changed in the store since this context read them. Defaults to
    /// ``MergePolicy/error``, which makes the save throw ``ObjectGraphError/mergeConflict``.
    public var mergePolicy: MergePolicy = .error

    /// Whether changes made elsewhere are merged into this context automatically, on its queue:
    /// for a child context, what sibling contexts save into its parent; for a root context, what
    /// anyone commits to its store: the saves of other contexts of the coordinator, batch
    /// requests, and the commits of other coordinators and other processes (read from the
    /// store's persistent history; see "Every commit reaches every live controller" in the
    /// README). Merges come in commit order, and the context's fetched results controllers
    /// deliver each as a change batch.
    ///
    /// Core Data merges only saves of the same coordinator this way, and leaves the rest to the
    /// app (remote-change notifications, history, batch-request results): that plumbing can go.
    ///
    /// Safe to read and set from any thread.
    public var automaticallyMergesChangesFromParent: Bool {
        get { autoMerges.load(ordering: .acquiring) }
        set { autoMerges.store(newValue, ordering: .releasing) }
    }
    private let autoMerges = Atomic<Bool>(false)

    /// Whether the context keeps strong references to every registered object. By default it
    /// keeps only objects with unsaved changes, and forgets objects nobody else references.
    public var retainsRegisteredObjects: Bool = false {
        didSet { retainedObjects = retainsRegisteredObjects ? Set(registeredObjects) : [] }
    }

    /// Whether a fault whose row was deleted elsewhere is treated as deleted: its values read as
    /// nil (or their defaults) and it reports ``ManagedObject/isDeleted``. True by default, as in
    /// Core Data.
    ///
    /// Set it to false to be told instead. Core Data then raises an exception where the fault
    /// fires; here the fault still reads as nil, and the next ``save()`` throws
    /// ``ObjectGraphError/objectNotFound`` naming every object read so, before writing anything
    /// (the save after that goes ahead). ``rollback()`` and ``reset()`` forget them.
    ///
    /// ```swift
    /// context.shouldDeleteInaccessibleFaults = false
    /// let name = order.customer?.name      // the customer's row was deleted by another process
    /// try context.save()                   // throws ObjectGraphError.objectNotFound
    /// ```
    public var shouldDeleteInaccessibleFaults: Bool = true

    /// Records the changes made here so that they can be undone: every processed change event
    /// (an insertion, a deletion with what its delete rules changed, property changes) is one
    /// action, undone and redone by ``undo()`` and ``redo()`` or the manager's own methods. Nil
    /// by default, as in Core Data on iOS: recording costs memory and time.
    ///
    /// With no run loop on Linux to close a group per user event, group changes explicitly with
    /// ``UndoManager/beginUndoGrouping()`` and ``UndoManager/endUndoGrouping()`` (which process
    /// the context's pending changes first, so that they fall in the group); outside a group each
    /// event is its own undo step (see ``UndoManager``). Merges from other contexts are not
    /// recorded; ``rollback()`` and ``reset()`` forget this context's actions. Undoing after a
    /// save brings the saved changes back as unsaved ones, as in Core Data.
    ///
    /// ```swift
    /// context.undoManager = UndoManager()
    /// context.undoManager?.beginUndoGrouping()
    /// let team = Team(context: context)
    /// team.teamName = "Brazil"
    /// context.undoManager?.endUndoGrouping()
    /// context.undo()            // the team is gone
    /// ```
    public var undoManager: UndoManager? {
        didSet {
            #if !canImport(Darwin)
            oldValue?.removeCheckpointHandler(for: self)
            // As Core Data does at the undo manager's checkpoint notification: changes made
            // before a group ends are processed, so that they are recorded in that group.
            undoManager?.addCheckpointHandler(for: self) { [weak self] in
                guard let self, self.isOnQueue else { return }
                self.processPendingChanges()
            }
            #endif
        }
    }

    /// While an undo or redo runs: the record of what reverses the changes it makes.
    var undoCollector: UndoRecord?
    /// Set by a rollback: the next processing of pending changes registers nothing to undo.
    var skipsUndoRegistration = false
    /// While an object's `awakeFromFetch()` runs: what it sets is not a change (Core Data turns
    /// change processing off around the call, so that it can fill caches and transient values).
    var isAwakingFromFetch = false
    /// Whether reads are pinned to a query generation (``setQueryGenerationFrom(_:)``).
    var queryGenerationState = QueryGenerationState.unpinned

    /// Faults that found no row while ``shouldDeleteInaccessibleFaults`` was false, which the
    /// next save reports.
    var unfulfilledFaults: [ManagedObjectID] = []

    /// How old, in seconds, a row kept in memory may be when a fault fires and reads it: a
    /// negative value (the default, as in Core Data) takes any age, so a fault uses the row its
    /// fetch or a merge left with it; zero or more reads the row from the parent store again.
    ///
    /// The library does not record when it read a cached row, so every interval of zero or more
    /// behaves as zero: such faults always read the parent store (a fault without a cached row
    /// always does, whatever the interval).
    public var stalenessInterval: TimeInterval = -1

    let queue: DispatchQueue
    private let queueToken: QueueToken
    /// Whether objects registered here check the queue on every property access (see
    /// ``ConcurrencyDebugging``).
    let checksObjectAccess = ConcurrencyDebugging.isEnabled

    /// Where faults come from and saves go: a coordinator, or a parent context.
    var parentStore: ParentStore?

    // MARK: Registry and change tracking (touched only on the context's queue)

    var registry = ObjectRegistry()
    var retainedObjects: Set<ManagedObject> = []
    /// Objects inserted, deleted, or changed since the last save (strongly held), in the order
    /// they joined.
    var insertedSet = OrderedObjectSet()
    var deletedSet = OrderedObjectSet()
    var changedSet = OrderedObjectSet()
    /// The current event, reported by the next processPendingChanges.
    var pending = PendingEvent()
    var isProcessingPendingChanges = false
    /// Whether the pending changes were made by merging a save (see
    /// ContextEvent.ObjectsDidChange.causedByMerge).
    var pendingChangesComeFromMerge = false
    var processingScheduled = false
    var performDepth = 0
    /// Child contexts, for merges and ID updates; read from other contexts' queues (see
    /// ``childContexts``).
    let children = Locked<[WeakContext]>([])
    /// Permanent IDs an ancestor's save gave to objects this context may hold under temporary
    /// IDs, handed down synchronously and applied on this context's queue (see
    /// ManagedObjectContext+PermanentIDs).
    let pendingRenamings = Locked<[IDMapping]>([])
    /// Renamings applied to the registry but not reported to observers yet.
    var unreportedRenamings: [IDMapping] = []
    var observers: [ObserverToken: (ContextEvent) -> Void] = [:]
    /// The one observer through which the context's tracking fetched results controllers hear
    /// it, made by the first of them (see ``ResultsSource/mergeRouter``).
    var mergeRouter: MergeRouter?
    /// The event being delivered, so that changedValuesForCurrentEvent() answers during delivery.
    var deliveringEvent: ContextEvent?
    var streamSubscribers: [UUID: StreamSubscriber] = [:]
    /// Commits given to this context but not merged here yet, oldest first (auto-merging root
    /// contexts only; see ManagedObjectContext+UnmergedCommits).
    let unmergedCommits = Locked(UnmergedCommits())
    let streamLock = NSLock()

    /// Creates a context of the given concurrency type. Set ``persistentStoreCoordinator`` or
    /// ``parent`` before using it.
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueueConcurrencyType:
            queue = .main
            queueToken = QueueToken.main
        case .privateQueueConcurrencyType:
            queue = DispatchQueue(label: "OpenCoreData.context")
            queueToken = QueueToken()
            queue.setSpecific(key: QueueToken.key, value: queueToken)
        }
        if concurrencyType == .privateQueueConcurrencyType { queueToken.owner = self }
    }

    deinit {
        streamLock.withLock {
            for subscriber in streamSubscribers.values { subscriber.continuation.finish() }
        }
    }

    /// The coordinator the context (or its root ancestor) saves to.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        get {
            switch parentStore {
            case .coordinator(let coordinator): coordinator
            case .context(let parent): parent.persistentStoreCoordinator
            case nil: nil
            }
        }
        set {
            precondition(registry.isEmpty, "Set a context's coordinator before using it.")
            parentStore = newValue.map { .coordinator($0) }
            newValue?.register(self)
        }
    }

    /// The context this one saves into, for a child context.
    public var parent: ManagedObjectContext? {
        get {
            if case .context(let parent) = parentStore { return parent }
            return nil
        }
        set {
            precondition(registry.isEmpty, "Set a context's parent before using it.")
            parentStore = newValue.map { .context($0) }
            newValue?.adopt(self)
        }
    }

    /// The model of the context's coordinator.
    var managedObjectModel: ManagedObjectModel {
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("The context has no persistent store coordinator; set persistentStoreCoordinator or parent first.")
        }
        return coordinator.managedObjectModel
    }

    public var description: String {
        "<ManagedObjectContext \(name ?? "") \(concurrencyType == .mainQueueConcurrencyType ? "main" : "private")>"
    }

    private func adopt(_ child: ManagedObjectContext) {
        children.withLock { children in
            children.removeAll { $0.context == nil }
            children.append(WeakContext(context: child))
        }
    }

    /// The child contexts that still exist.
    var childContexts: [ManagedObjectContext] {
        children.withLock { children in
            children.removeAll { $0.context == nil }
            return children.compactMap(\.context)
        }
    }
}

// MARK: - Queue confinement

extension ManagedObjectContext {
    /// Whether the caller runs on this context's queue, or inside a synchronous call the queue
    /// made into another queue (a store read), with the context's queue waiting for it.
    var isOnQueue: Bool {
        if DispatchQueue.getSpecific(key: QueueToken.key) === queueToken { return true }
        if concurrencyType == .mainQueueConcurrencyType && Thread.isMainThread { return true }
        return QueueToken.carried === queueToken
    }

    /// Runs `body`, which calls synchronously into another queue (the store's), so that code it
    /// calls back (reading objects' values) still counts as running on this context's queue:
    /// `DispatchQueue.sync` runs the block on this thread while the context's queue waits.
    func carryingQueue<T>(_ body: () throws -> T) rethrows -> T {
        let previous = QueueToken.carried
        QueueToken.carried = queueToken
        defer { QueueToken.carried = previous }
        return try body()
    }

    /// Stops the program when the context is used off its queue: that would be a data race on the
    /// object graph.
    func assertOnQueue(_ function: StaticString = #function) {
        precondition(isOnQueue, "\(function) was called on \(self) off its queue. Use perform { } or performAndWait { }, or the main queue for a main-queue context.")
    }
}

/// Identifies a context's queue through `DispatchQueue.getSpecific`.
final class QueueToken: @unchecked Sendable {
    /// The context of a private queue, for messages; the main queue's token has none.
    weak var owner: ManagedObjectContext?

    var ownerDescription: String { owner.map { "\($0)" } ?? "a context that no longer exists" }

    static let key = DispatchSpecificKey<QueueToken>()

    /// The token of the context whose queue this thread is carrying into a synchronous call
    /// (see ``ManagedObjectContext/carryingQueue(_:)``).
    static var carried: QueueToken? {
        get { carriedToken.value }
        set { carriedToken.value = newValue }
    }
    private static let carriedToken = ThreadLocal<QueueToken>()
    static let main: QueueToken = {
        let token = QueueToken()
        DispatchQueue.main.setSpecific(key: key, value: token)
        return token
    }()
}

/// Where a context reads faults from and saves to.
enum ParentStore {
    case coordinator(PersistentStoreCoordinator)
    case context(ManagedObjectContext)
}

struct WeakContext: Sendable {
    weak var context: ManagedObjectContext?
}

// MARK: - Registry

extension ManagedObjectContext {
    /// The registered object with this ID, if it is still alive.
    ///
    /// A permanent ID not found may name an object held here under its temporary ID, saved by an
    /// ancestor whose renaming has not been applied here yet: it is applied, and the ID looked up
    /// again.
    func registeredObjectIfAlive(for id: ManagedObjectID) -> ManagedObject? {
        if let object = registry.object(for: id) { return object }
        guard !id.isTemporaryID, registry.holdsTemporaryObjects, renamePendingObjects() else { return nil }
        return registry.object(for: id)
    }

    func register(_ object: ManagedObject) {
        registry.register(object)
        if retainsRegisteredObjects { retainedObjects.insert(object) }
    }

    func unregister(_ object: ManagedObject) {
        registry.unregister(object)
        if !retainedObjects.isEmpty { retainedObjects.remove(object) }
    }

    /// Every object registered in the context and still alive.
    public var registeredObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registry.objects)
    }

    /// Objects inserted and not saved yet.
    public var insertedObjects: Set<ManagedObject> {
        assertOnQueue()
        return insertedSet.members
    }

    /// Objects with unsaved changes that are neither inserted nor deleted.
    public var updatedObjects: Set<ManagedObject> {
        assertOnQueue()
        return changedSet.filter(\.isUpdated)
    }

    /// Objects deleted and not saved yet.
    public var deletedObjects: Set<ManagedObject> {
        assertOnQueue()
        return deletedSet.members
    }

    /// Whether the context has unsaved inserts, deletes or changes.
    public var hasChanges: Bool {
        assertOnQueue()
        return !insertedSet.isEmpty || !deletedSet.isEmpty || changedSet.contains(where: \.hasPropertyChanges)
    }
}
