import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// FRC-SPEC section 10 (and API-18): the persistent section cache. The tests use the process's
/// cache directory, each under a unique cache name that it deletes at the end; SQLite only, the
/// store a cache outlives.
@Suite struct FetchedResultsCacheTests {
    private static let decks = [CardSeed("a1", deck: "A", rank: 1), CardSeed("a2", deck: "A", rank: 2),
                                CardSeed("b1", deck: "B", rank: 1), CardSeed("c1", deck: "C", rank: 1)]

    /// What a controller's fetch read, and showed.
    struct Fetch {
        var selects: [String]
        var layout: [String]
        /// Whether the fetch queried the cards, rather than restoring them from the cache.
        var queriedCards: Bool { selects.contains { $0.contains("FROM \"Card\"") } }
    }

    /// Fetches with a new controller in `context` under `cacheName`, then waits for the cache
    /// writer, so that the file on disk is the one this fetch leaves.
    private static func fetch(_ context: ManagedObjectContext, log: LogRecorder, cacheName: String, delegate: Bool = true,
                              predicate: String? = nil, sectionKey: String = "deck",
                              sort: [FetchSortDescriptor]? = nil, then body: (FetchedResultsController<Card>) throws -> Void = { _ in }) throws -> Fetch {
        let fetch = try context.performAndWait { () throws -> Fetch in
            let request = try Spec.request(sectioned: true, predicate: predicate)
            if let sort { request.sortDescriptors = sort }
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: sectionKey, cacheName: cacheName)
            let recorder = ClassicRecorder()
            if delegate { controller.delegate = recorder }
            let selects = try log.selects { try controller.performFetch() }
            let fetch = Fetch(selects: selects, layout: Spec.layout(controller))
            try body(controller)
            return fetch
        }
        SectionCaches.writer().waitUntilIdle()
        return fetch
    }

    private static func uniqueName(_ prefix: String = "spec") -> String { "\(prefix)-\(UUID().uuidString)" }

    private static var cacheFileManager: FileManager { .default }

    // CAC-01, CAC-04, DEL-02: with a cache name and a delegate, the sections are written to
    // `<cache directory>/<escaped name>/sectionInfo`.
    @Test func aTrackedControllerWritesItsSectionsUnderTheCacheDirectory() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = "cards/\(UUID().uuidString) x"
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        _ = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        let root = AnyFetchedResultsController.cacheDirectory ?? SectionCacheLocation.defaultRoot()
        let file = root.appendingPathComponent(SectionCacheLocation.escapedName(name)).appendingPathComponent("sectionInfo")
        #expect(SectionCacheLocation.escapedName(name).hasPrefix("cards%2F"))
        #expect(Self.cacheFileManager.fileExists(atPath: file.path))
        let contents = try #require(try SectionCaches.writer().read(cacheName: name)?.get())
        #expect(contents.sections == [.init(name: "A", indexTitle: "A", count: 2), .init(name: "B", indexTitle: "B", count: 1),
                                      .init(name: "C", indexTitle: "C", count: 1)])
        #expect(contents.rowKeys.count == 4)
    }

    // CAC-04, DEL-02: a cache name without a delegate writes nothing.
    @Test func aCacheNameWithoutADelegateWritesNoCache() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        let fetch = try Self.fetch(stack.newContext(), log: log, cacheName: name, delegate: false)
        #expect(fetch.layout == ["A: a1 a2", "B: b1", "C: c1"])
        #expect(!Self.cacheFileManager.fileExists(atPath: SectionCacheLocation.current.fileURL(forCacheName: name).path))
    }

    // CAC-03: a valid cache gives the sections and the objects without querying the cards.
    @Test func aValidCacheRestoresSectionsAndObjectsWithoutFetching() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        let first = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        var restoredIDs: [[ManagedObjectID]] = []
        var fetchedIDs: [[ManagedObjectID]] = []
        let second = try Self.fetch(stack.newContext(), log: log, cacheName: name) { controller in
            restoredIDs = controller.contents.map(\.ids)
        }
        let third = try Self.fetch(stack.newContext(), log: log, cacheName: Self.uniqueName("uncached"), delegate: false) { controller in
            fetchedIDs = controller.contents.map(\.ids)
        }
        #expect(restoredIDs == fetchedIDs && fetchedIDs.joined().count == 4)
        #expect(first.queriedCards)
        #expect(!second.queriedCards, "\(second.selects)")
        #expect(second.layout == first.layout)
        #expect(third.layout == first.layout)
    }

    // CAC-03: with unsaved changes the context's view differs from the store's: no restore.
    @Test func aCacheIsNotRestoredIntoAContextWithUnsavedChanges() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        _ = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        let context = stack.newContext()
        let unsaved = context.performAndWait { Spec.insert(CardSeed("u", deck: "B", rank: 0), into: context) }
        let fetch = try Self.fetch(context, log: log, cacheName: name)
        withExtendedLifetime(unsaved) {}
        #expect(fetch.queriedCards)
        #expect(fetch.layout == ["A: a1 a2", "B: u b1", "C: c1"])
    }

    // CAC-04: the owning context's save rewrites the cache, which stays valid.
    @Test func theOwningContextsSaveKeepsTheCacheValid() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        let seeded = try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        let context = stack.newContext()
        let id = try #require(seeded["a1"]).objectID
        _ = try Self.fetch(context, log: log, cacheName: name) { _ in
            let card = try #require(try context.existingObject(with: id) as? Card)
            card.deck = "D"
            try context.save()
        }
        let next = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        #expect(!next.queriedCards, "\(next.selects)")
        #expect(next.layout == ["A: a2", "B: b1", "C: c1", "D: a1"])
    }

    // CAC-04, CAC-06: any later save by another context makes the cache stale (Apple's radar
    // 45072441 keeps such a cache); it is not used and is rewritten.
    @Test func aSaveByAnotherContextMakesTheCacheStale() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        _ = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        try Spec.seed(stack.newContext(), [CardSeed("b2", deck: "B", rank: 2)])
        let stale = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        let rewritten = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        #expect(stale.queriedCards)
        #expect(stale.layout == ["A: a1 a2", "B: b1 b2", "C: c1"])
        #expect(!rewritten.queriedCards)
        #expect(rewritten.layout == stale.layout)
    }

    // CAC-02, CAC-05. Deliberate difference: the predicate is part of what a cache is valid for
    // (Apple stores no predicate, and traps or shows stale sections); so are the sort descriptors
    // and section key path. A mismatched cache is discarded silently and rebuilt.
    @Test func anotherRequestUnderTheSameNameDoesNotUseTheCache() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        _ = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        let filtered = try Self.fetch(stack.newContext(), log: log, cacheName: name, predicate: "rank == 1")
        let resorted = try Self.fetch(stack.newContext(), log: log, cacheName: name,
                                      sort: [FetchSortDescriptor(key: "deck"), FetchSortDescriptor(key: "rank", ascending: false)])
        let resectioned = try Self.fetch(stack.newContext(), log: log, cacheName: name, sectionKey: "rank",
                                         sort: [FetchSortDescriptor(key: "rank"), FetchSortDescriptor(key: "title")])
        #expect(filtered.queriedCards && resorted.queriedCards && resectioned.queriedCards)
        #expect(filtered.layout == ["A: a1", "B: b1", "C: c1"])
        #expect(resorted.layout == ["A: a2 a1", "B: b1", "C: c1"])
        #expect(resectioned.layout == ["1: a1 b1 c1", "2: a2"])
    }

    // CAC-02: a cache written with another model is not used.
    @Test func aCacheWrittenWithAnotherModelIsNotUsed() throws {
        let directory = TemporaryDirectory()
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        do {
            let stack = try TestStack(.sqlite, directory: directory, recordingSQL: true)
            try Spec.seed(stack.newContext(), Self.decks)
            _ = try Self.fetch(stack.newContext(), log: try #require(stack.log), cacheName: name)
        }
        let model = try ManagedObjectModel(managedObjectClasses: [
            Team.self, Player.self, Coach.self, Club.self, Sample.self, CDCar.self, Item.self,
            Person.self, Employee.self, Department.self, Card.self, Memo.self,
        ])
        let reopened = try TestStack(.sqlite, model: model, directory: directory, recordingSQL: true)
        let fetch = try Self.fetch(reopened.newContext(), log: try #require(reopened.log), cacheName: name)
        #expect(fetch.queriedCards)
        #expect(fetch.layout == ["A: a1 a2", "B: b1", "C: c1"])
    }

    // Deliberate difference (DESIGN §3.1): a damaged cache file is discarded and rebuilt.
    @Test func aDamagedCacheFileIsDiscardedAndRebuilt() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        _ = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        let file = SectionCacheLocation.current.fileURL(forCacheName: name)
        try Data("not a section cache".utf8).write(to: file)
        let damaged = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        let rebuilt = try Self.fetch(stack.newContext(), log: log, cacheName: name)
        #expect(damaged.queriedCards)
        #expect(damaged.layout == ["A: a1 a2", "B: b1", "C: c1"])
        #expect((try? SectionCaches.writer().read(cacheName: name)?.get()) != nil)
        #expect(!rebuilt.queriedCards)
        #expect(rebuilt.layout == damaged.layout)
    }

    // API-18: deleting a cache removes its directory; live controllers keep their results.
    @Test func deletingACacheRemovesItsDirectoryAndLeavesLiveControllersAlone() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.decks)
        let name = Self.uniqueName()
        let other = Self.uniqueName()
        defer { AnyFetchedResultsController.deleteCache(withName: other) }
        let context = stack.newContext()
        var layoutAfterDelete: [String] = []
        _ = try Self.fetch(context, log: log, cacheName: other)
        _ = try Self.fetch(context, log: log, cacheName: name) { controller in
            SectionCaches.writer().waitUntilIdle()
            AnyFetchedResultsController.deleteCache(withName: name)
            layoutAfterDelete = Spec.layout(controller)
        }
        let directory = SectionCacheLocation.current.directoryURL(forCacheName: name)
        #expect(!Self.cacheFileManager.fileExists(atPath: directory.path))
        #expect(Self.cacheFileManager.fileExists(atPath: SectionCacheLocation.current.fileURL(forCacheName: other).path))
        #expect(layoutAfterDelete == ["A: a1 a2", "B: b1", "C: c1"])
    }

    // API-18: nil removes every cache. `deleteCache(withName: nil)` is `remove(cacheName: nil)` on
    // the process's writer; it is checked on a writer with its own directory, so as not to wipe
    // the caches of tests running in parallel.
    @Test func removingEveryCacheEmptiesTheCacheDirectory() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url.appendingPathComponent("caches")))
        for name in ["one", "two"] {
            writer.write(SectionCacheContents(configuration: "c", storeIdentifier: "s", storeGeneration: 1,
                                              sections: [.init(name: "", indexTitle: nil, count: 0)], rowKeys: []),
                         cacheName: name)
        }
        writer.waitUntilIdle()
        let written = ["one", "two"].map { writer.location.fileURL(forCacheName: $0).path }
        #expect(written.allSatisfy { Self.cacheFileManager.fileExists(atPath: $0) })
        writer.remove(cacheName: nil)
        #expect(!Self.cacheFileManager.fileExists(atPath: writer.location.root.path))
    }
}

/// An entity only the "another model" cache test adds to the fixtures' model.
final class Memo: ManagedObject {
    @Managed var text: String = ""
}
