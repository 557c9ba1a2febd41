import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// Fetched results controllers while constraint conflicts are resolved: on the saving context
/// (which showed the new object as soon as it was inserted) and on another context merging the
/// save (for which an insert that became an update of a stored row must be an update).
@Suite struct ConstraintControllerTests {
    private func seeded(_ kind: StoreKind) throws -> TestStack {
        let stack = try ConstraintFixtures.stack(kind)
        let seeding = stack.newContext()
        try seeding.performAndWait {
            for (code, name) in [("BR", "Brazil"), ("FR", "France"), ("DE", "Germany"), ("AR", "Argentina")] {
                let country = Country(context: seeding)
                (country.code, country.name) = (code, name)
            }
            try seeding.save()
        }
        return stack
    }

    @Test(arguments: StoreKind.withPostgres, [PolicyKind.objectTrump, .storeTrump, .overwrite, .rollback])
    func theSavingContextsControllerSeesTheNewObjectFoldedIntoTheStoredOne(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try seeded(kind)
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let checker = try ConstraintBatchChecker(context)
            // A new Brazil named to sort elsewhere (its own section), a second new France, and
            // a new country with no conflict.
            let brazil = Country(context: context)
            (brazil.code, brazil.name) = ("BR", "Zbrazil")
            let france1 = Country(context: context)
            (france1.code, france1.name) = ("FR", "Afrance")
            let france2 = Country(context: context)
            (france2.code, france2.name) = ("FR", "France")
            let chile = Country(context: context)
            (chile.code, chile.name) = ("CL", "Chile")
            context.processPendingChanges()
            try context.save()
            #expect(try checker.verify() >= 2)
            #expect(checker.controller.fetchedObjects?.count == 5)
            let names = Set(checker.controller.fetchedObjects?.map { $0.name ?? "" } ?? [])
            #expect(names == (policy.newcomerWins ? ["Zbrazil", "France", "Germany", "Argentina", "Chile"]
                                                  : ["Brazil", "France", "Germany", "Argentina", "Chile"]))
        }
    }

    @Test(arguments: StoreKind.withPostgres, [PolicyKind.objectTrump, .storeTrump])
    func anotherContextsControllerSeesAnUpdateNotAnInsert(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try seeded(kind)
        let viewer = stack.newContext()
        viewer.automaticallyMergesChangesFromParent = true
        let checker = try viewer.performAndWait { try ConstraintBatchChecker(viewer) }
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let brazil = Country(context: context)
            (brazil.code, brazil.name, brazil.population) = ("BR", "Zbrazil", 3)
            try context.save()
        }
        try viewer.performAndWait { () throws in
            #expect(try checker.verify() == (policy.newcomerWins ? 1 : 0))
            let changes = checker.batches.flatMap(\.objectChanges)
            #expect(!changes.contains { $0.type == .insert }, "the viewer saw an insert: \(changes)")
            #expect(checker.controller.fetchedObjects?.count == 4)
        }
    }

    /// Folding stored objects into one another (a changed code meeting a stored row) reaches
    /// both controllers as a deletion and an update.
    @Test(arguments: StoreKind.withPostgres)
    func aStoredObjectFoldedIntoAnotherIsDeletedForControllers(kind: StoreKind) throws {
        let stack = try seeded(kind)
        let viewer = stack.newContext()
        viewer.automaticallyMergesChangesFromParent = true
        let viewerChecker = try viewer.performAndWait { try ConstraintBatchChecker(viewer) }
        let context = stack.newContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.performAndWait {
            let checker = try ConstraintBatchChecker(context)
            let germany = try #require(checker.controller.fetchedObjects?.first { $0.code == "DE" })
            germany.code = "FR"
            try context.save()
            try checker.verify()
            #expect(checker.controller.fetchedObjects?.map(\.code).sorted() == ["AR", "BR", "FR"])
        }
        try viewer.performAndWait {
            try viewerChecker.verify()
            #expect(viewerChecker.controller.fetchedObjects?.map(\.code).sorted() == ["AR", "BR", "FR"])
        }
    }
}
