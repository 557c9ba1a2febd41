import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// The delegate is handed the deleted object itself, as in Core Data: for a new object deleted
/// before it was saved (by the app, or folded into another by a uniqueness constraint's merge
/// policy), no longer registered under its temporary ID, a lookup by ID would hand it a stranger
/// that reads as defaults and logs a fault that cannot be fulfilled.
@Suite struct FetchedResultsDeletedObjectTests {
    private final class DeletionRecorder: FetchedResultsControllerDelegate, @unchecked Sendable {
        var deleted: [(object: ManagedObject, title: String)] = []
        func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                        for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            guard type == .delete, let card = anObject as? Card else { return }
            deleted.append((card, card.title))
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func aDeletedNewObjectReachesTheDelegateAsItself(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            _ = Spec.insert(CardSeed("saved", rank: 1), into: context)
            try context.save()
            let controller = try Spec.controller(context)
            let recorder = DeletionRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let card = Spec.insert(CardSeed("new", rank: 2), into: context)
            context.processPendingChanges()
            context.delete(card)
            context.processPendingChanges()
            #expect(recorder.deleted.count == 1)
            #expect(recorder.deleted.first?.object === card)
            #expect(recorder.deleted.first?.title == "new")
        }
    }
}
