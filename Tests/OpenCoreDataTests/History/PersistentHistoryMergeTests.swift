import Foundation
@testable import OpenCoreData
import Testing

/// Merging fetched history into a context, and the remote-change notification that says when
/// there is history to fetch.
@Suite struct PersistentHistoryMergeTests {
    /// A context that does not merge automatically, holding Brazil (0 wins) and Chile; another
    /// context then gives Brazil 5 wins, deletes Chile and inserts Peru. Returns the viewer, the
    /// IDs and the history of the second save.
    private func viewerBehindASave(_ kind: StoreKind) throws
        -> (HistoryStack, ManagedObjectContext, brazil: ManagedObjectID, chile: ManagedObjectID, peru: ManagedObjectID, [PersistentHistoryTransaction]) {
        let stack = try HistoryStack(kind)
        let brazil = try stack.insertTeam("Brazil")
        let chile = try stack.insertTeam("Chile")
        let viewer = stack.newContext()
        viewer.performAndWait { viewer.retainsRegisteredObjects = true }
        #expect(try viewer.performAndWait { try viewer.all(Team.self).count } == 2)
        let token = try stack.currentToken()
        let context = stack.newContext()
        let peru = try context.performAndWait { () throws -> ManagedObjectID in
            (try context.existingObject(with: brazil) as? Team)?.wins = 5
            context.delete(try context.existingObject(with: chile))
            let team = Team(context: context)
            team.teamName = "Peru"
            team.qualifyingZone = "CONMEBOL"
            try context.save()
            return team.objectID
        }
        return (stack, viewer, brazil, chile, peru, try stack.transactions(after: token))
    }

    @Test(arguments: StoreKind.withPostgres)
    func aContextMergesAFetchedTransaction(kind: StoreKind) throws {
        let (stack, viewer, brazil, chile, peru, transactions) = try viewerBehindASave(kind)
        // The stack holds the store's PostgreSQL schema (SQLite's file stays open without it).
        defer { withExtendedLifetime(stack) {} }
        let transaction = try #require(transactions.first)
        let notification = transaction.objectIDNotification()
        #expect(notification.name == ManagedObjectContext.didSaveObjectIDsNotification)
        #expect(notification.userInfo?[ManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue] as? Set<ManagedObjectID> == [brazil])
        let merged = MergeRecorder(viewer)
        try viewer.performAndWait {
            let team = try #require(viewer.registeredObject(for: brazil) as? Team)
            #expect(team.wins == 0)
            viewer.mergeChanges(fromContextDidSave: notification)
            #expect(team.wins == 5)
            #expect(viewer.registeredObject(for: chile) == nil)
        }
        let changes = try #require(merged.events.first)
        #expect(changes.inserted == [peru])
        #expect(changes.updated == [brazil])
        #expect(changes.deleted == [chile])
        #expect(changes.changedKeys[brazil] == ["wins"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func aTransactionMergesAsARemoteContextSave(kind: StoreKind) throws {
        let (stack, viewer, brazil, chile, _, transactions) = try viewerBehindASave(kind)
        defer { withExtendedLifetime(stack) {} }
        let info = try #require(transactions.first?.objectIDNotification().userInfo)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: info, into: [viewer])
        viewer.performAndWait {
            #expect((viewer.registeredObject(for: brazil) as? Team)?.wins == 5)
            #expect(viewer.registeredObject(for: chile) == nil)
        }
        // URIs, as apps keep them, name the same objects.
        let uris: [AnyHashable: Any] = [UpdatedObjectsKey: [brazil.uriRepresentation()]]
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: uris, into: [viewer])
    }

    @Test func remoteChangeNotificationsCarryTheTokenOfEveryCommit() async throws {
        let listening = try HistoryStack(.sqlite) { $0.postsPersistentStoreRemoteChangeNotifications = true }
        let writer = try listening.reopened()
        let silent = try listening.reopened { $0.postsPersistentStoreRemoteChangeNotifications = false }
        let heard = RemoteChangeRecorder(name: PersistentStoreRemoteChange, object: listening.coordinator)
        let unheard = RemoteChangeRecorder(name: PersistentStoreRemoteChange, object: silent.coordinator)
        try writer.insertTeam("From another coordinator")
        let first = try writer.currentToken()
        try listening.insertTeam("Its own")
        let second = try listening.currentToken()
        let notes = try await heard.wait(for: 2)
        #expect(notes.allSatisfy { $0.object as? PersistentStoreCoordinator === listening.coordinator })
        #expect(notes.map { $0.userInfo?[PersistentHistoryTokenKey] as? PersistentHistoryToken } == [first, second])
        let store = try #require(listening.coordinator.persistentStores.first)
        #expect(notes.allSatisfy { $0.userInfo?[StoreUUIDKey] as? String == store.identifier })
        #expect(notes.allSatisfy { ($0.userInfo?[PersistentStoreURLKey] as? URL)?.standardizedFileURL == listening.storeURL.standardizedFileURL })
        // Nothing for coordinators that did not ask, and a commit reported twice is posted once.
        RemoteChangeCenter.shared.storeDidCommit(store.identifier, historyToken: first)
        try await Task.sleep(for: .milliseconds(100))
        #expect(heard.notes.count == 2)
        #expect(unheard.notes.isEmpty)
        #expect(PersistentStoreCoordinator.persistentStoreRemoteChangeNotification == PersistentStoreRemoteChange)
    }

    @Test func aStoreWithoutHistoryPostsWithoutAToken() async throws {
        let stack = try HistoryStack(.inMemory, tracking: false) { $0.postsPersistentStoreRemoteChangeNotifications = true }
        let heard = RemoteChangeRecorder(name: PersistentStoreRemoteChange, object: stack.coordinator)
        try stack.insertTeam("One")
        try stack.insertTeam("Two")
        let notes = try await heard.wait(for: 2)
        #expect(notes.allSatisfy { $0.userInfo?[PersistentHistoryTokenKey] == nil && $0.userInfo?[StoreUUIDKey] != nil })
    }
}

/// Records notifications of one name, posted on any thread.
final class RemoteChangeRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Notification] = []
    private var observer: (any NSObjectProtocol)?

    init(name: Notification.Name, object: AnyObject? = nil) {
        observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
            self?.lock.withLock { self?.recorded.append(note) }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var notes: [Notification] { lock.withLock { recorded } }

    /// The notifications once there are `count`, waiting up to 10 seconds.
    func wait(for count: Int) async throws -> [Notification] {
        for _ in 0..<1_000 where notes.count < count {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(notes.count >= count, "only \(notes.count) of \(count) notifications arrived")
        return notes
    }
}
