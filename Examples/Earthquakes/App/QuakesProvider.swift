public import Foundation
public import OpenCoreData
import Synchronization

/// The data layer of the Earthquakes app: the store of ``Quake``s, the import of the USGS feed,
/// deletion, and the merge of the store's history into the view context.
///
/// Imports and deletions run as batch requests in background contexts, which write the store
/// without touching the view context. The view context does not merge saves by itself
/// (``ManagedObjectContext/automaticallyMergesChangesFromParent`` is off, as in the sample):
/// each commit posts ``PersistentStoreRemoteChange``, and the provider answers it by fetching the
/// history after the last transaction it merged and merging each new transaction.
///
/// ```swift
/// let provider = try QuakesProvider()
/// try await provider.importQuakes(from: feedData)
/// let controller = FetchedResultsController(fetchRequest: request,
///                                           managedObjectContext: provider.container.viewContext,
///                                           sectionNameKeyPath: nil, cacheName: nil)
/// ```
///
/// Unchecked `Sendable`: the observer token is set once in `init`, the history position is
/// behind a mutex, and the contexts are used on their queues only.
public final class QuakesProvider: @unchecked Sendable {
    /// The feed the sample downloads: the past month's earthquakes, from the U.S. Geological
    /// Survey. This port takes the feed's data (see ``importQuakes(from:)``).
    public static let feedURL = URL(string: "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_month.geojson")

    /// The persistent container, with history tracking and remote-change notifications on.
    public let container: PersistentContainer

    /// The last history transaction merged into the view context: the next history fetch starts
    /// after its token. Read on background contexts, written on the view context's queue.
    let lastMerged = Mutex<MergedTransaction?>(nil)

    private var notificationToken: (any NSObjectProtocol)?

    /// Loads the `Earthquakes` store and starts merging its history into the view context.
    ///
    /// - Parameter storeURL: The store's file; nil for the container's default place,
    ///   `Earthquakes/Earthquakes.sqlite` in the user's data directory.
    /// - Throws: ``QuakeError/storeNotLoaded(error:)`` when the model or the store cannot be
    ///   loaded.
    public init(storeURL: URL? = nil) throws {
        let container = PersistentContainer(name: "Earthquakes")
        if let description = container.persistentStoreDescriptions.first {
            if let storeURL {
                description.url = storeURL
            }
            description.setOption(true as NSNumber, forKey: PersistentHistoryTrackingKey)
            description.setOption(true as NSNumber, forKey: PersistentStoreRemoteChangeNotificationPostOptionKey)
        }
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in
            loadError = error
        }
        if let loadError {
            throw QuakeError.storeNotLoaded(error: loadError)
        }
        // Batch requests never reach the view context by a save: the history merge brings them.
        container.viewContext.automaticallyMergesChangesFromParent = false
        container.viewContext.name = "viewContext"
        container.viewContext.mergePolicy = MergeByPropertyObjectTrumpMergePolicy
        container.viewContext.undoManager = nil
        container.viewContext.shouldDeleteInaccessibleFaults = true
        self.container = container

        // Posted after every commit to the store, this process's batch requests included.
        notificationToken = NotificationCenter.default.addObserver(
            forName: PersistentStoreRemoteChange, object: container.persistentStoreCoordinator, queue: nil
        ) { [weak self] _ in
            Task { await self?.fetchPersistentHistory() }
        }
    }

    deinit {
        if let observer = notificationToken {
            NotificationCenter.default.removeObserver(observer)
        }
    }

    /// A private-queue context for one import, deletion or history fetch. Its objects win over
    /// the store's per property, so a quake the feed brings again overwrites the stored one.
    func newTaskContext() -> ManagedObjectContext {
        let taskContext = container.newBackgroundContext()
        taskContext.mergePolicy = MergeByPropertyObjectTrumpMergePolicy
        taskContext.undoManager = nil
        return taskContext
    }
}
