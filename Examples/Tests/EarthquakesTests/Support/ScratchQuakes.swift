import EarthquakesApp
import Foundation
import OpenCoreData

/// A ``QuakesProvider`` on an SQLite file of its own in a temporary directory, removed when the
/// test is done with it.
final class ScratchQuakes {
    let directory: URL
    let provider: QuakesProvider
    /// The store's history token before the test wrote anything.
    private let openingToken: PersistentHistoryToken?

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("EarthquakesTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        provider = try QuakesProvider(storeURL: directory.appendingPathComponent("Earthquakes.sqlite"))
        openingToken = try provider.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits until the view context has merged every commit (the remote-change observer's merges
    /// run on their own), then closes the store, so that no merge or change-feed look reaches
    /// for a file the test is about to remove.
    func close() async {
        let coordinator = container.persistentStoreCoordinator
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let current = try? coordinator.currentPersistentHistoryToken(fromStores: nil)
            if (provider.lastToken ?? openingToken) == current { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        for store in coordinator.persistentStores {
            try? coordinator.remove(store)
        }
    }

    var container: PersistentContainer { provider.container }

    /// The quakes as a new context reads them from the store, by code.
    func stored() throws -> [String: StoredQuake] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let quakes = try context.fetch(FetchRequest<Quake>(entityName: "Quake"))
            return Dictionary(quakes.map { ($0.code, StoredQuake(magnitude: $0.magnitude, place: $0.place, time: $0.time)) },
                              uniquingKeysWith: { first, _ in first })
        }
    }

    /// How many rows the store holds.
    func count() throws -> Int {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<Quake>(entityName: "Quake")) }
    }
}

/// Runs `body` with a new scratch store, and closes the store after it, whether it throws or not.
func withQuakes(_ body: (ScratchQuakes) async throws -> Void) async throws {
    let store = try ScratchQuakes()
    do {
        try await body(store)
    } catch {
        await store.close()
        throw error
    }
    await store.close()
}

/// A stored quake's values.
struct StoredQuake: Equatable {
    var magnitude: Float
    var place: String
    var time: Date
}

extension FeedFixture.Quake {
    var expected: StoredQuake? {
        magnitude.map { StoredQuake(magnitude: $0, place: place, time: time) }
    }
}
