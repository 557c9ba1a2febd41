import Foundation
import OpenCoreData
import Testing

/// One object per ID across a save of new objects: the objects the app keeps are found by their
/// new and old IDs, during the did-save notification and after it; those nobody keeps are let go.
@Suite struct RegistryTests {
    private func insertTeams(_ names: [String], into context: ManagedObjectContext) -> [Team] {
        names.map { name in
            let team = Team(context: context)
            team.teamName = name
            team.qualifyingZone = "UEFA"
            return team
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func keptObjectsAreFoundByEitherIDAndTheOthersAreLetGo(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                              object: context, queue: nil) { note in
            // During the report, the saved objects are found under their permanent IDs.
            guard let saved = note.userInfo?[InsertedObjectsKey] as? Set<ManagedObject> else { return }
            let context = saved.first?.managedObjectContext
            #expect(saved.count == 3 && saved.allSatisfy { context?.object(with: $0.objectID) === $0 })
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            var temporaryIDs: [ManagedObjectID] = []
            let kept: Team = try {
                let teams = insertTeams(["Spain", "Italy", "Wales"], into: context)
                temporaryIDs = teams.map(\.objectID)
                try context.save()
                return teams[1]
            }()
            // Only the team the test keeps is still registered; the others went with their last reference.
            #expect(context.registeredObjects.map(\.objectID) == [kept.objectID])
            #expect(!kept.objectID.isTemporaryID)
            #expect(context.object(with: kept.objectID) === kept)
            #expect(context.object(with: temporaryIDs[1]) === kept)
            // A team let go comes back as a fault of the stored row.
            let spain = try #require(try context.existingObject(with: temporaryIDs[0]) as? Team)
            #expect(spain.teamName == "Spain" && !spain.objectID.isTemporaryID)
            // Kept objects stay unique through later changes and saves.
            kept.wins = 3
            try context.save()
            #expect(try context.all(Team.self).filter { $0.teamName == "Italy" }.map { $0 === kept } == [true])
        }
    }

    @Test func anObjectDeletedWhileItsSaveIsReportedIsNotFoundAfterwards() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                              object: context, queue: nil) { note in
            guard let team = (note.userInfo?[InsertedObjectsKey] as? Set<ManagedObject>)?.first(where: { ($0 as? Team)?.teamName == "Gone" }) else { return }
            team.managedObjectContext?.delete(team)
        }
        try context.performAndWait {
            let teams = insertTeams(["Gone", "Stays"], into: context)
            try context.save()
            NotificationCenter.default.removeObserver(observer)
            #expect(teams[0].isDeleted)
            try context.save()
            #expect(teams[0].managedObjectContext == nil)
            #expect(context.registeredObjects.map(\.objectID) == [teams[1].objectID])
            #expect(try context.all(Team.self).map(\.teamName) == ["Stays"])
        }
    }

    @Test func childObjectsKeepTheirIdentityWhenTheParentSavesThem() async throws {
        let stack = try TestStack(.sqlite)
        let parent = stack.newContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let box = try child.performAndWait { () throws -> ObjectsBox in
            let teams = insertTeams(["Chile", "Peru"], into: child)
            try child.save()
            return ObjectsBox(teams)
        }
        try parent.performAndWait { try parent.save() }
        let (same, temporary) = await child.perform { () -> (Bool, Bool) in
            let team = box.objects[0]
            return (child.object(with: team.objectID) === team, team.objectID.isTemporaryID)
        }
        #expect(same && !temporary)
    }
}
