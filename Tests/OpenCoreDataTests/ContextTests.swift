import Foundation
import OpenCoreData
import Testing

@Suite struct ContextTests {
    /// Each context has a user info dictionary of its own, kept across saves and resets, which
    /// the library never reads.
    @Test func userInfoBelongsToItsContext() throws {
        let stack = try TestStack()
        let context = stack.newContext()
        let other = stack.newContext()
        try context.performAndWait {
            context.userInfo["importRun"] = 7
            makeTeam("Ghana", in: context)
            try context.save()
            context.reset()
            #expect(context.userInfo["importRun"] as? Int == 7)
        }
        other.performAndWait { #expect(other.userInfo.count == 0) }
    }

    /// `registeredObject(for:)` finds what the context holds, by temporary or permanent ID, and
    /// never makes a fault; Core Data's global merge policy names assign as they do there.
    @Test func registeredObjectFindsOnlyWhatTheContextHolds() throws {
        let stack = try TestStack()
        let context = stack.newContext()
        let other = stack.newContext()
        let id = try context.performAndWait {
            context.mergePolicy = MergeByPropertyObjectTrumpMergePolicy
            let team = makeTeam("Mali", in: context)
            #expect(context.registeredObject(for: team.objectID) === team)
            try context.save()
            #expect(context.registeredObject(for: team.objectID) === team)
            #expect(context.mergePolicy.mergeType == .mergeByPropertyObjectTrumpMergePolicyType)
            return team.objectID
        }
        other.performAndWait {
            #expect(other.registeredObject(for: id) == nil)
            // Registered while something holds it: the context keeps its objects weakly.
            let fault = other.object(with: id)
            #expect(other.registeredObject(for: id) === fault)
            #expect(fault.isFault)
        }
    }

    @discardableResult
    private func makeTeam(_ name: String, wins: Int16 = 0, in context: ManagedObjectContext) -> Team {
        let team = Team(context: context)
        team.teamName = name
        team.qualifyingZone = "CAF"
        team.wins = wins
        return team
    }

    private func storedTeamNames(_ stack: TestStack) throws -> [String] {
        let reader = stack.newContext()
        return try reader.performAndWait { try reader.all(Team.self, sortedBy: "teamName").map(\.teamName) }
    }

    @Test(arguments: StoreKind.withPostgres)
    func childSavePushesToTheParentNotTheStore(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let parent = stack.newContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let (held, temporaryID) = try child.performAndWait {
            let team = makeTeam("Ghana", in: child)
            try child.save()
            #expect(!child.hasChanges)
            return (ObjectsBox([team]), team.objectID)
        }
        #expect(temporaryID.isTemporaryID)
        #expect(try storedTeamNames(stack).isEmpty)
        try parent.performAndWait {
            #expect(parent.insertedObjects.map(\.objectID) == [temporaryID])
            let team = try #require(parent.registeredObjects.first as? Team)
            #expect(team.teamName == "Ghana")
            try parent.save()
        }
        #expect(try storedTeamNames(stack) == ["Ghana"])
        // The child's object learns its permanent ID once the parent has saved.
        let (permanent, found) = await child.perform { (held.objects[0].objectID, child.object(with: temporaryID) === held.objects[0]) }
        #expect(!permanent.isTemporaryID)
        #expect(found)
    }

    @Test(arguments: StoreKind.withPostgres)
    func permanentIDsReachGrandchildren(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let root = stack.newContext()
        let middle = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        middle.parent = root
        let leaf = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        leaf.parent = middle
        let held = try leaf.performAndWait {
            let team = makeTeam("Gabon", in: leaf)
            try leaf.save()
            return ObjectsBox([team])
        }
        try middle.performAndWait { try middle.save() }
        try root.performAndWait { try root.save() }
        await middle.perform {}
        let id = await leaf.perform { held.objects[0].objectID }
        #expect(!id.isTemporaryID)
        #expect(try storedTeamNames(stack) == ["Gabon"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func childSeesItsParentsUnsavedChanges(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let parent = stack.newContext()
        try parent.performAndWait {
            makeTeam("Egypt", wins: 1, in: parent)
            try parent.save()
            try parent.all(Team.self)[0].wins = 5
            makeTeam("Mali", in: parent)
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            let teams = try child.all(Team.self, sortedBy: "teamName")
            #expect(teams.map(\.teamName) == ["Egypt", "Mali"])
            #expect(teams[0].wins == 5)
            teams[0].wins += 1
            child.delete(teams[1])
            try child.save()
        }
        let (wins, inserted) = try parent.performAndWait { (try parent.all(Team.self).map(\.wins), parent.insertedObjects.count) }
        #expect(wins == [6] && inserted == 0)
    }

    @Test(arguments: StoreKind.withPostgres)
    func backgroundSavesMergeIntoTheViewContext(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let view = stack.container.viewContext
        let background = stack.newContext()
        let (loadedID, deletedID) = try background.performAndWait {
            let loaded = makeTeam("Senegal", wins: 1, in: background)
            let deleted = makeTeam("Tunisia", in: background)
            makeTeam("Morocco", in: background)
            try background.save()
            return (loaded.objectID, deleted.objectID)
        }
        let merges = MergeRecorder(view)
        // The view context holds two of the three teams (objects stay registered while someone
        // holds them); Morocco it never loads.
        let held = try await view.perform {
            view.automaticallyMergesChangesFromParent = true
            return ObjectsBox([try view.existingObject(with: loadedID), try view.existingObject(with: deletedID)])
        }
        let (insertedID, unloadedID) = try background.performAndWait {
            let teams = try background.all(Team.self, sortedBy: "teamName")
            teams.first { $0.teamName == "Senegal" }?.wins = 2
            teams.first { $0.teamName == "Morocco" }?.wins = 7
            background.delete(try background.existingObject(with: deletedID))
            let inserted = makeTeam("Algeria", in: background)
            try background.save()
            return (inserted.objectID, teams.first { $0.teamName == "Morocco" }!.objectID)
        }
        let (senegalWins, deletedIsRegistered, names) = try await view.perform {
            let senegal = held.objects[0] as? Team
            return (senegal?.wins, view.registeredObjects.contains { $0.objectID == deletedID },
                    try view.all(Team.self, sortedBy: "teamName").map(\.teamName))
        }
        #expect(senegalWins == 2)
        #expect(!deletedIsRegistered)
        #expect(names == ["Algeria", "Morocco", "Senegal"])
        let merge = try #require(merges.events.first)
        #expect(merge.inserted == [insertedID])
        #expect(merge.deleted == [deletedID])
        #expect(merge.updated.contains(loadedID) && merge.updated.contains(unloadedID))
        #expect(merge.changedKeys[unloadedID] == ["wins"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func mergeChangesFromAnotherContextsDidSaveNotification(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let writer = stack.newContext()
        let reader = stack.newContext()
        let id = try writer.performAndWait {
            let team = makeTeam("Nigeria", in: writer)
            try writer.save()
            return team.objectID
        }
        try reader.performAndWait { _ = try reader.existingObject(with: id) }
        let saved = NotificationBox()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                              object: writer, queue: nil) { saved.notification = $0 }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            (try writer.existingObject(with: id) as? Team)?.wins = 3
            try writer.save()
        }
        let notification = try #require(saved.notification)
        #expect((notification.userInfo?[UpdatedObjectsKey] as? Set<ManagedObject>)?.map(\.objectID) == [id])
        reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: notification)
            #expect((reader.object(with: id) as? Team)?.wins == 3)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func siblingChildrenMergeThroughTheirParent(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let parent = stack.newContext()
        let writer = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.parent = parent
        let watcher = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        watcher.parent = parent
        watcher.automaticallyMergesChangesFromParent = true
        let id = try writer.performAndWait {
            let team = makeTeam("Cameroon", in: writer)
            try writer.save()
            return team.objectID
        }
        let before = try watcher.performAndWait { (try watcher.existingObject(with: id) as? Team)?.wins }
        #expect(before == 0)
        try writer.performAndWait {
            (try writer.existingObject(with: id) as? Team)?.wins = 4
            try writer.save()
        }
        let wins = await watcher.perform { (watcher.object(with: id) as? Team)?.wins }
        #expect(wins == 4)
    }

    @Test(arguments: StoreKind.withPostgres)
    func notificationsDescribeEachEvent(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let recorder = NotificationRecorder(context)
        defer { recorder.stop() }
        try context.performAndWait {
            let team = makeTeam("Ivory Coast", in: context)
            context.processPendingChanges()
            team.wins = 2
            context.processPendingChanges()
            try context.save()
            context.delete(team)
            try context.save()
        }
        let names = recorder.notes.map(\.name)
        #expect(names == [
            ManagedObjectContext.didChangeObjectsNotification,       // insert
            ManagedObjectContext.didChangeObjectsNotification,       // update
            ManagedObjectContext.willSaveObjectsNotification,
            ManagedObjectContext.didSaveObjectsNotification,
            ManagedObjectContext.didSaveObjectIDsNotification,
            ManagedObjectContext.didChangeObjectsNotification,       // delete, processed by save
            ManagedObjectContext.willSaveObjectsNotification,
            ManagedObjectContext.didSaveObjectsNotification,
            ManagedObjectContext.didSaveObjectIDsNotification,
        ])
        func objects(_ index: Int, _ key: String) -> Int {
            (recorder.notes[index].userInfo?[key] as? Set<ManagedObject>)?.count ?? 0
        }
        #expect(objects(0, InsertedObjectsKey) == 1 && objects(0, UpdatedObjectsKey) == 0)
        #expect(objects(1, UpdatedObjectsKey) == 1)
        let update = try #require(recorder.notes[1].userInfo?[ManagedObjectContext.NotificationKey.changes.rawValue] as? ContextChanges)
        #expect(update.changedKeys.values.first == ["wins"])
        #expect(objects(3, InsertedObjectsKey) == 1)
        #expect(objects(5, DeletedObjectsKey) == 1)
        #expect(objects(7, DeletedObjectsKey) == 1)
        let ids = recorder.notes[4].userInfo?[ManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue] as? Set<ManagedObjectID>
        #expect(ids?.count == 1 && ids?.first?.isTemporaryID == false)
    }

    @Test(arguments: StoreKind.withPostgres)
    func performProcessesPendingChangesAtTheEndOfTheBlock(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let recorder = NotificationRecorder(context)
        defer { recorder.stop() }
        let duringBlock = await context.perform {
            let first = makeTeam("Zambia", in: context)
            first.wins = 1
            _ = makeTeam("Kenya", in: context)
            return recorder.notes.count
        }
        #expect(duringBlock == 0)
        #expect(recorder.notes.count == 1)
        let inserted = recorder.notes.first?.userInfo?[InsertedObjectsKey] as? Set<ManagedObject>
        #expect(inserted?.count == 2)
    }

    @Test func mainQueueContextProcessesChangesAtTheEndOfTheQueueTurn() async throws {
        let stack = try TestStack(.inMemory)
        let view = stack.container.viewContext
        let recorder = NotificationRecorder(view)
        defer { recorder.stop() }
        let duringTurn = await MainActor.run {
            makeTeam("Benin", in: view)
            makeTeam("Togo", in: view)
            return recorder.notes.count
        }
        await MainActor.run {}
        #expect(duringTurn == 0)
        #expect(recorder.notes.count == 1)
        #expect((recorder.notes.first?.userInfo?[InsertedObjectsKey] as? Set<ManagedObject>)?.count == 2)
    }

    @Test(arguments: StoreKind.withPostgres)
    func typedChangeStreamDeliversEachEvent(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let stream = context.changes(of: [.objectsDidChange, .didSave])
        try await context.perform {
            makeTeam("Angola", in: context)
            try context.save()
        }
        var iterator = stream.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let second = try #require(await iterator.next())
        #expect(first.kind == .objectsDidChange && first.inserted.count == 1)
        #expect(second.kind == .didSave && second.inserted.count == 1 && second.inserted.first?.isTemporaryID == false)
    }
}

/// Collects a context's notifications, in order.
final class NotificationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Notification] = []
    private var observers: [any NSObjectProtocol] = []

    init(_ context: ManagedObjectContext) {
        let names = [ManagedObjectContext.didChangeObjectsNotification, ManagedObjectContext.willSaveObjectsNotification,
                     ManagedObjectContext.didSaveObjectsNotification, ManagedObjectContext.didSaveObjectIDsNotification,
                     ManagedObjectContext.didMergeChangesObjectIDsNotification]
        observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [weak self] note in
                guard let self else { return }
                lock.withLock { recorded.append(note) }
            }
        }
    }

    var notes: [Notification] { lock.withLock { recorded } }

    func stop() {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }
}

/// Collects a context's merges as typed change sets.
final class MergeRecorder: @unchecked Sendable {
    private let recorder: NotificationRecorder

    init(_ context: ManagedObjectContext) {
        recorder = NotificationRecorder(context)
    }

    var events: [ContextChanges] {
        recorder.notes
            .filter { $0.name == ManagedObjectContext.didMergeChangesObjectIDsNotification }
            .compactMap { $0.userInfo?[ManagedObjectContext.NotificationKey.changes.rawValue] as? ContextChanges }
    }
}

/// Carries objects out of a perform block so that the test keeps them alive; use them only on
/// their context's queue.
final class ObjectsBox: @unchecked Sendable {
    let objects: [ManagedObject]
    init(_ objects: [ManagedObject]) { self.objects = objects }
}

final class NotificationBox: @unchecked Sendable {
    var notification: Notification?
}
