import Foundation
import OpenCoreData

/// After the change scenarios, the controller must hold exactly what a fresh fetch returns, in
/// the same order: a benchmark of a wrong answer would measure nothing.
enum OrderCheck {
    static func verify(_ controller: FetchedResultsController<Team>, in context: ManagedObjectContext) throws {
        try context.performAndWait {
            // Objects come as faults: reading their IDs loads no values.
            let held = controller.fetchedObjects?.map(\.objectID) ?? []
            let request = FetchRequest<ManagedObjectID>(entityName: "Team")
            request.resultType = .managedObjectIDResultType
            request.sortDescriptors = Team.sortDescriptors
            let fetched = try context.fetch(request)
            guard held == fetched else {
                let first = zip(held, fetched).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(held.count, fetched.count)
                throw BenchError(description: "the controller's rows differ from a fresh fetch from position \(first) (\(held.count) rows held, \(fetched.count) fetched)")
            }
        }
    }
}
