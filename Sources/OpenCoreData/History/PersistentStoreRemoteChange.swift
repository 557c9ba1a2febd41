public import Foundation

/// Posted after a commit to a store, by every coordinator of the process that loaded it with
/// ``PersistentStoreRemoteChangeNotificationPostOptionKey`` set (Core Data's
/// `NSPersistentStoreRemoteChange`). The object is the coordinator; the user info holds the
/// store's URL under ``PersistentStoreURLKey``, its identifier under ``StoreUUIDKey``, and, when
/// the store records history, the token after the new history under
/// ``PersistentHistoryTokenKey``.
///
/// Commits by every coordinator of the process are posted, the observing one's own included (as
/// Core Data does), once each, in commit order, on a queue of the library's (not the main queue):
/// fetch the history after your last token in a context's `perform`. Several commits in a row may
/// come as one notification, whose token follows the last of them.
///
/// ```swift
/// NotificationCenter.default.addObserver(forName: PersistentStoreRemoteChange,
///                                        object: container.persistentStoreCoordinator, queue: nil) { note in
///     let token = note.userInfo?[PersistentHistoryTokenKey] as? PersistentHistoryToken
///     background.perform { mergeHistory(upTo: token) }
/// }
/// ```
public let PersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
/// The user-info key of a ``PersistentStoreRemoteChange``'s ``PersistentHistoryToken``.
public let PersistentHistoryTokenKey = "historyToken"
/// The user-info key of a ``PersistentStoreRemoteChange``'s store URL.
public let PersistentStoreURLKey = "storeURL"
/// The user-info key of a ``PersistentStoreRemoteChange``'s store identifier.
public let StoreUUIDKey = "NSStoreUUID"

/// Turns "a store has new history" into ``PersistentStoreRemoteChange`` notifications for every
/// coordinator of this process that asked for them on that store.
///
/// Saves call ``storeDidCommit(_:historyToken:)`` as they commit; a watcher of other processes'
/// commits calls it with the token it reads from the store. A token no later than the last one
/// posted for its store is dropped, so each commit is posted once, whoever reports it first.
final class RemoteChangeCenter: Sendable {
    static let shared = RemoteChangeCenter()

    private struct Listener {
        weak var coordinator: PersistentStoreCoordinator?
        let store: PersistentStore
    }

    private struct State {
        /// Listening coordinators, by store identifier.
        var listeners: [String: [Listener]] = [:]
        /// The last token posted, by store identifier.
        var lastPosted: [String: PersistentHistoryToken] = [:]
    }

    private let state = Locked(State())
    /// Posts in the order commits were reported, off the committing thread (which holds its
    /// coordinator's save lock).
    private let queue = DispatchQueue(label: "OpenCoreData.remoteChange")

    /// Starts posting to `coordinator` for commits to `store`.
    func register(_ coordinator: PersistentStoreCoordinator, for store: PersistentStore) {
        state.withLock { state in
            state.listeners[store.identifier, default: []].removeAll { $0.coordinator == nil || $0.store === store }
            state.listeners[store.identifier, default: []].append(Listener(coordinator: coordinator, store: store))
        }
    }

    /// Stops posting for `store` (removed from its coordinator).
    func unregister(_ store: PersistentStore) {
        state.withLock { state in
            state.listeners[store.identifier]?.removeAll { $0.coordinator == nil || $0.store === store }
        }
    }

    /// The store with this identifier committed, and has new history up to `token` (nil for a
    /// store that records none): every listening coordinator posts
    /// ``PersistentStoreRemoteChange``, unless a token at least as late was posted already.
    func storeDidCommit(_ storeIdentifier: String, historyToken token: PersistentHistoryToken?) {
        let listeners = state.withLock { state -> [Listener] in
            guard let listeners = state.listeners[storeIdentifier], !listeners.isEmpty else { return [] }
            if let token {
                if let last = state.lastPosted[storeIdentifier], last >= token { return [] }
                state.lastPosted[storeIdentifier] = token
            }
            return listeners
        }
        guard !listeners.isEmpty else { return }
        queue.async {
            for listener in listeners {
                guard let coordinator = listener.coordinator else { continue }
                var info: [AnyHashable: Any] = [StoreUUIDKey: storeIdentifier]
                if let url = listener.store.url { info[PersistentStoreURLKey] = url }
                if let token { info[PersistentHistoryTokenKey] = token }
                NotificationCenter.default.post(name: PersistentStoreRemoteChange, object: coordinator, userInfo: info)
            }
        }
    }
}

extension PersistentStoreCoordinator {
    /// Core Data's name for ``PersistentStoreRemoteChange``.
    public static let persistentStoreRemoteChangeNotification = PersistentStoreRemoteChange

    /// A store was loaded: starts posting its remote changes if its description asks, and applies
    /// its history's retention rule (a writable store only).
    func storeWasAdded(_ store: PersistentStore, description: PersistentStoreDescription) {
        if description.postsPersistentStoreRemoteChangeNotifications {
            RemoteChangeCenter.shared.register(self, for: store)
        }
        followCommits(to: store)
        guard !store.isReadOnly, let backend = store.backend as? any PersistentHistoryBackend else { return }
        do {
            _ = try backend.pruneHistory(now: Date())
        } catch {
            (description.logger ?? Log.store).error("pruning the persistent history of \(store): \(error)")
        }
    }

    /// A save committed to `store`.
    func storeDidCommit(_ store: PersistentStore, _ outcome: SaveOutcome) {
        guard case .committed(_, _, _, let token) = outcome else { return }
        RemoteChangeCenter.shared.storeDidCommit(store.identifier, historyToken: token)
    }
}
