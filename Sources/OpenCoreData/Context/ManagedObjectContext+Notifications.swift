public import Foundation

// MARK: - Notification names and keys

extension ManagedObjectContext {
    /// Posted by ``processPendingChanges()`` with the objects inserted, updated, deleted,
    /// refreshed or invalidated in the event (Core Data's `NSManagedObjectContextObjectsDidChange`).
    public static let didChangeObjectsNotification = Notification.Name("ManagedObjectContextObjectsDidChangeNotification")
    /// Posted at the start of ``save()``, with no user info.
    public static let willSaveObjectsNotification = Notification.Name("ManagedObjectContextWillSaveNotification")
    /// Posted after a save with the inserted, updated and deleted objects; pass it to
    /// ``mergeChanges(fromContextDidSave:)`` of another context.
    public static let didSaveObjectsNotification = Notification.Name("ManagedObjectContextDidSaveNotification")
    /// Posted after a save with the IDs of the inserted, updated and deleted objects.
    public static let didSaveObjectIDsNotification = Notification.Name("ManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted after changes saved elsewhere were merged, with the IDs of the inserted, updated,
    /// deleted and refreshed objects, including objects the context never loaded.
    public static let didMergeChangesObjectIDsNotification = Notification.Name("ManagedObjectContextDidMergeChangesObjectIDsNotification")

    /// The user-info keys of context notifications, with Core Data's raw values.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let insertedObjects = NotificationKey(rawValue: "inserted")
        public static let updatedObjects = NotificationKey(rawValue: "updated")
        public static let deletedObjects = NotificationKey(rawValue: "deleted")
        public static let refreshedObjects = NotificationKey(rawValue: "refreshed")
        public static let invalidatedObjects = NotificationKey(rawValue: "invalidated")
        public static let invalidatedAllObjects = NotificationKey(rawValue: "invalidatedAll")
        public static let insertedObjectIDs = NotificationKey(rawValue: "inserted_objectIDs")
        public static let updatedObjectIDs = NotificationKey(rawValue: "updated_objectIDs")
        public static let deletedObjectIDs = NotificationKey(rawValue: "deleted_objectIDs")
        public static let refreshedObjectIDs = NotificationKey(rawValue: "refreshed_objectIDs")
        public static let invalidatedObjectIDs = NotificationKey(rawValue: "invalidated_objectIDs")
        /// The ``ContextChanges`` of the notification (keys included), under every notification.
        public static let changes = NotificationKey(rawValue: "OpenCoreData.changes")
        /// The saved changes a did-save notification carries for merging. Not API.
        static let savedChanges = NotificationKey(rawValue: "OpenCoreData.savedChanges")
    }
}

/// Core Data's global names for the notifications and keys, without the `NS` prefix.
public let ManagedObjectContextObjectsDidChange = ManagedObjectContext.didChangeObjectsNotification
public let ManagedObjectContextWillSave = ManagedObjectContext.willSaveObjectsNotification
public let ManagedObjectContextDidSave = ManagedObjectContext.didSaveObjectsNotification
public let InsertedObjectsKey = ManagedObjectContext.NotificationKey.insertedObjects.rawValue
public let UpdatedObjectsKey = ManagedObjectContext.NotificationKey.updatedObjects.rawValue
public let DeletedObjectsKey = ManagedObjectContext.NotificationKey.deletedObjects.rawValue
public let RefreshedObjectsKey = ManagedObjectContext.NotificationKey.refreshedObjects.rawValue
public let InvalidatedObjectsKey = ManagedObjectContext.NotificationKey.invalidatedObjects.rawValue
public let InvalidatedAllObjectsKey = ManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue

// MARK: - Posting

extension ManagedObjectContext {
    func postNotification(for event: ContextEvent, changes: ContextChanges) {
        typealias Key = NotificationKey
        var info: [AnyHashable: Any] = [Key.changes.rawValue: changes]
        func put(_ objects: Set<ManagedObject>, _ key: Key) {
            if !objects.isEmpty { info[key.rawValue] = objects }
        }
        func put(_ ids: Set<ManagedObjectID>, _ key: Key) {
            if !ids.isEmpty { info[key.rawValue] = ids }
        }
        let name: Notification.Name
        switch event {
        case .objectsDidChange(let change):
            name = Self.didChangeObjectsNotification
            put(change.inserted, .insertedObjects)
            put(change.updated, .updatedObjects)
            put(change.deleted, .deletedObjects)
            put(change.refreshed, .refreshedObjects)
            put(change.invalidated, .invalidatedObjects)
            if change.invalidatedAll { info[Key.invalidatedAllObjects.rawValue] = true }
        case .willSave:
            name = Self.willSaveObjectsNotification
        case .didSave(let save):
            name = Self.didSaveObjectsNotification
            put(save.inserted, .insertedObjects)
            put(save.updated, .updatedObjects)
            put(save.deleted, .deletedObjects)
            info[Key.savedChanges.rawValue] = save.saved
        case .didMerge:
            name = Self.didMergeChangesObjectIDsNotification
            put(changes.inserted, .insertedObjectIDs)
            put(changes.updated, .updatedObjectIDs)
            put(changes.deleted, .deletedObjectIDs)
            put(changes.refreshed, .refreshedObjectIDs)
        case .objectIDsDidChange, .storeChangesMissed:
            return
        }
        NotificationCenter.default.post(name: name, object: self, userInfo: info)
        if case .didSave = event {
            var idInfo: [AnyHashable: Any] = [:]
            if !changes.inserted.isEmpty { idInfo[Key.insertedObjectIDs.rawValue] = changes.inserted }
            if !changes.updated.isEmpty { idInfo[Key.updatedObjectIDs.rawValue] = changes.updated }
            if !changes.deleted.isEmpty { idInfo[Key.deletedObjectIDs.rawValue] = changes.deleted }
            NotificationCenter.default.post(name: Self.didSaveObjectIDsNotification, object: self, userInfo: idInfo)
        }
    }
}

// MARK: - Typed observation

extension ManagedObjectContext {
    /// The context's change sets as an async sequence: one element per notification of the given
    /// kinds, in order. The sequence ends when the context is deallocated.
    ///
    /// ```swift
    /// Task {
    ///     for await change in context.changes(of: [.objectsDidChange]) {
    ///         print("updated:", change.updated, "keys:", change.changedKeys)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter kinds: Which notifications to deliver; all of them by default.
    /// - Returns: A sequence that buffers every change set until it is read.
    public func changes(of kinds: Set<ContextChanges.Kind> = Set(ContextChanges.Kind.allCases)) -> AsyncStream<ContextChanges> {
        let (stream, continuation) = AsyncStream<ContextChanges>.makeStream()
        let id = UUID()
        streamLock.withLock { streamSubscribers[id] = StreamSubscriber(kinds: kinds, continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            streamLock.withLock { _ = streamSubscribers.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ changes: ContextChanges) {
        let subscribers = streamLock.withLock { Array(streamSubscribers.values) }
        for subscriber in subscribers where subscriber.kinds.contains(changes.kind) {
            subscriber.continuation.yield(changes)
        }
    }

    /// Calls `handler` synchronously, on the context's queue, for every change event. The
    /// fetched results controller observes contexts this way. Remove with ``removeObserver(_:)``.
    func addObserver(_ handler: @escaping (ContextEvent) -> Void) -> ObserverToken {
        let token = ObserverToken()
        observers[token] = handler
        return token
    }

    func removeObserver(_ token: ObserverToken) {
        observers[token] = nil
    }
}

/// One reader of ``ManagedObjectContext/changes(of:)``.
struct StreamSubscriber {
    let kinds: Set<ContextChanges.Kind>
    let continuation: AsyncStream<ContextChanges>.Continuation
}

/// Identifies an observer registration.
final class ObserverToken: Hashable, @unchecked Sendable {
    static func == (lhs: ObserverToken, rhs: ObserverToken) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
