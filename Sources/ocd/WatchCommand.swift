import Foundation
import OpenCoreData

/// `ocd watch STORE --entity E --sort …`: a fetched results controller on a context that merges
/// every change committed to the store, printing each batch it delivers, until interrupted.
enum WatchCommand {
    static func run(_ arguments: Arguments) throws(ToolError) -> Never {
        let store = try OpenedStore(path: arguments.storePath)
        let request = try FetchSpecification.request(arguments, in: store)
        let context = store.container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let printer = BatchPrinter(json: arguments.has("json"), keys: request.entity.map(ObjectValues.keys) ?? [])
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: arguments.value("section"), cacheName: nil)
        controller.delegate = printer
        do {
            try context.performAndWait {
                let token = try store.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
                try controller.performFetch()
                try printer.printReady(controller, entity: request.entityName ?? "", token: token)
            }
        } catch {
            throw ToolError(error)
        }
        // The controller's batches arrive on the context's queue; this thread only keeps the
        // process, the controller and its delegate alive.
        withExtendedLifetime((store, controller, printer)) {
            dispatchMain()
        }
    }
}
