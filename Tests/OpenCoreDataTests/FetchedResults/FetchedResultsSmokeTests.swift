import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

@Suite struct FetchedResultsSmokeTests {
    private func worldCupController(_ context: ManagedObjectContext) -> FetchedResultsController<Team> {
        let request = Team.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"), FetchSortDescriptor(key: "wins", ascending: false),
                                   FetchSortDescriptor(key: "teamName")]
        return FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                        sectionNameKeyPath: "qualifyingZone", cacheName: nil)
    }

    @Test(arguments: StoreKind.withPostgres)
    func fetchesSectionsAndFollowsAnUpdate(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try WorldCupData.seed(context)
        let result = try context.performAndWait { () throws -> ([String], [String], [String]) in
            let controller = worldCupController(context)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let names = controller.sections?.map(\.name) ?? []
            let japan = try #require(controller.fetchedObjects?.first { $0.teamName == "Japan" })
            japan.wins = 9
            context.processPendingChanges()
            let after = controller.fetchedObjects?.map(\.teamName) ?? []
            return (names, recorder.calls.map(\.description), after)
        }
        #expect(result.0 == ["AFC", "CONMEBOL", "UEFA"])
        #expect(result.2 == ["Japan", "Korea", "Brazil", "Argentina", "Germany", "France", "Spain"])
        #expect(result.1.first == "will" && result.1.last == "did")
        #expect(result.1.count == 3)
    }
}
