import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData
import Testing

/// The section cache is valid only if nothing reached the store since it was written: not another
/// process using the library, not a program writing the file without it, not another context of
/// the same process whose saves the controller's context never merged. Each test writes the store
/// behind a tracking controller's back, then relaunches (a new container on the same file and
/// cache) and checks that the relaunched controller shows exactly what the store holds.
@Suite struct SectionCacheOtherWriterTests {
    /// Who writes the store behind the controller's back.
    enum Writer: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `CrashTestWriter`, another process saving through the library.
        case libraryProcess
        /// The `sqlite3` shell, inserting a row with SQL.
        case sqliteShell
        /// A GRDB connection of this process, deleting a row with SQL.
        case rawConnection

        var testDescription: String { rawValue }
    }

    /// The app: a container on the store, a controller tracking every entry under a cache name.
    final class App {
        let container: PersistentContainer
        let context: ManagedObjectContext
        let controller: FetchedResultsController<CrashEntry>
        let recorder = ClassicRecorder()
        let log = LogRecorder()
        /// Whether the first fetch queried the entries, rather than restoring them from the cache.
        let queriedEntries: Bool

        init(store: URL, cacheName: String) throws {
            container = PersistentContainer(name: "CrashTest",
                                            managedObjectModel: try ManagedObjectModel(managedObjectClasses: [CrashEntry.self]))
            let description = PersistentStoreDescription(url: store)
            description.logger = log.logger()
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            context = container.newBackgroundContext()
            let request = CrashEntry.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "batch"), FetchSortDescriptor(key: "index")]
            controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: nil, cacheName: cacheName)
            controller.delegate = recorder
            let selects = try context.performAndWait { [controller, log] in try log.selects { try controller.performFetch() } }
            queriedEntries = selects.contains { $0.contains("FROM \"CrashEntry\"") }
            SectionCaches.writer().waitUntilIdle()
        }

        /// The entries the controller shows, and the entries the store holds.
        func shownAndStored() throws -> (shown: [ManagedObjectID], stored: [ManagedObjectID]) {
            try context.performAndWait {
                let request = CrashEntry.fetchRequest()
                request.sortDescriptors = [FetchSortDescriptor(key: "batch"), FetchSortDescriptor(key: "index")]
                return ((controller.fetchedObjects.map { Array($0) } ?? []).map(\.objectID), try context.fetch(request).map(\.objectID))
            }
        }

        /// Inserts an entry and saves; the controller hears it and may write its cache.
        func saveAnEntry(batch: Int64) throws {
            try context.performAndWait {
                let entry = CrashEntry(context: context)
                entry.batch = batch
                try context.save()
            }
            SectionCaches.writer().waitUntilIdle()
        }

        func quit() throws {
            SectionCaches.writer().waitUntilIdle()
            for store in container.persistentStoreCoordinator.persistentStores {
                try container.persistentStoreCoordinator.remove(store)
            }
        }
    }

    private static func seed(_ store: URL, entries: Int) throws {
        let app = try App(store: store, cacheName: "seed-\(UUID().uuidString)")
        defer { AnyFetchedResultsController.deleteCache(withName: app.controller.cacheName) }
        try app.context.performAndWait {
            for index in 0..<entries {
                let entry = CrashEntry(context: app.context)
                entry.index = Int64(index)
            }
            try app.context.save()
        }
        try app.quit()
    }

    /// Writes one row into the store as `writer` does.
    private static func write(_ store: URL, as writer: Writer) throws {
        switch writer {
        case .libraryProcess:
            let executable = try #require(CrashHarness.writerURL(), "CrashTestWriter was not found; build it with `swift build --build-tests`")
            let process = Process()
            process.executableURL = executable
            process.arguments = [store.path, "1", "1"]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let complaints = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "CrashTestWriter failed: \(String(decoding: complaints, as: UTF8.self))")
        case .sqliteShell:
            // A new entry under a primary key the store hands out, so that later saves still work.
            try SQLiteShell.run("""
                BEGIN;
                UPDATE _ocd_primary_keys SET max_key = max_key + 1 WHERE entity = 'CrashEntry';
                INSERT INTO CrashEntry (_pk, _entity, _version, batch, "index", touchedBy)
                    SELECT max_key, (SELECT _entity FROM CrashEntry LIMIT 1), 1, 900, 0, 0 FROM _ocd_primary_keys WHERE entity = 'CrashEntry';
                COMMIT;
                """, on: store)
        case .rawConnection:
            let queue = try DatabaseQueue(path: store.path)
            try queue.write { db in
                try db.execute(sql: "DELETE FROM CrashEntry WHERE _pk = (SELECT min(_pk) FROM CrashEntry)")
            }
            try queue.close()
        }
    }

    private static func isAvailable(_ writer: Writer) -> Bool {
        writer != .sqliteShell || SQLiteShell.isAvailable
    }

    /// What the relaunch after `firstLaunch` showed.
    struct Relaunch {
        var shown: [ManagedObjectID]
        var stored: [ManagedObjectID]
        var queriedEntries: Bool

        /// Whether the controller shows what the store holds, checked.
        func expectShowsTheStore(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(shown == stored, "the relaunched controller shows \(shown.count) entries; the store holds \(stored.count)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Seeds a new store with nine entries, runs `firstLaunch` with it and a new cache name, then
    /// relaunches the app on both.
    private static func launchTwice(_ firstLaunch: (_ store: URL, _ cacheName: String) throws -> Void) throws -> Relaunch {
        let directory = TemporaryDirectory()
        let store = directory.file("Shared.sqlite")
        let cacheName = "other-writer-\(UUID().uuidString)"
        defer { AnyFetchedResultsController.deleteCache(withName: cacheName) }
        try seed(store, entries: 9)
        try firstLaunch(store, cacheName)
        let relaunched = try App(store: store, cacheName: cacheName)
        defer { try? relaunched.quit() }
        let (shown, stored) = try relaunched.shownAndStored()
        return Relaunch(shown: shown, stored: stored, queriedEntries: relaunched.queriedEntries)
    }

    /// Another context of the app's container saves an entry.
    private static func saveAnEntry(inAnotherContextOf app: App) throws {
        let other = app.container.newBackgroundContext()
        try other.performAndWait {
            CrashEntry(context: other).batch = 300
            try other.save()
        }
    }

    /// The case: the app's cached controller misses another writer's commit, then the
    /// app saves; the cache written after that save must not pass for current at the next launch.
    @Test(arguments: Writer.allCases)
    func aCommitTheControllerMissedIsNotCoveredByALaterSave(writer: Writer) throws {
        try #require(Self.isAvailable(writer), "needs \(SQLiteShell.path)")
        let relaunch = try Self.launchTwice { store, cacheName in
            let app = try App(store: store, cacheName: cacheName)
            try Self.write(store, as: writer)
            try app.saveAnEntry(batch: 500)
            let before = try app.shownAndStored()
            // The running app does not see the other writer (until change notifications across
            // processes exist); what matters is the next launch.
            #expect(before.shown.count != before.stored.count, "the writer's commit did not reach the store")
            try app.quit()
        }
        relaunch.expectShowsTheStore()
    }

    /// A commit made while the app was not running makes the cache it left stale.
    @Test(arguments: Writer.allCases)
    func aCommitBetweenLaunchesMakesTheCacheStale(writer: Writer) throws {
        try #require(Self.isAvailable(writer), "needs \(SQLiteShell.path)")
        let relaunch = try Self.launchTwice { store, cacheName in
            try App(store: store, cacheName: cacheName).quit()
            #expect(try SectionCaches.writer().read(cacheName: cacheName)?.get() != nil, "the first launch wrote no cache")
            try Self.write(store, as: writer)
        }
        relaunch.expectShowsTheStore()
    }

    /// The same within one process: a context that does not merge other contexts' saves misses
    /// one, then saves; its controller must not write a cache that claims to include it.
    @Test func aSaveOfAContextTheControllerNeverMergedIsNotCovered() throws {
        let relaunch = try Self.launchTwice { store, cacheName in
            let app = try App(store: store, cacheName: cacheName)
            #expect(!app.context.automaticallyMergesChangesFromParent)
            try Self.saveAnEntry(inAnotherContextOf: app)
            try app.saveAnEntry(batch: 500)
            try app.quit()
        }
        relaunch.expectShowsTheStore()
    }

    /// What must keep working: saves the controller's context made or merged keep the cache
    /// valid, so that the relaunch restores it without fetching.
    @Test func savesTheContextSawKeepTheCacheValid() throws {
        let relaunch = try Self.launchTwice { store, cacheName in
            let app = try App(store: store, cacheName: cacheName)
            app.context.automaticallyMergesChangesFromParent = true
            try Self.saveAnEntry(inAnotherContextOf: app)
            try app.saveAnEntry(batch: 500)
            // The merge of the other context's save runs on the app context's queue.
            app.context.performAndWait {}
            SectionCaches.writer().waitUntilIdle()
            let shown = try app.shownAndStored()
            #expect(shown.shown == shown.stored)
            try app.quit()
            let contents = try #require(try SectionCaches.writer().read(cacheName: cacheName)?.get())
            #expect(contents.rowKeys.count == 11)
        }
        relaunch.expectShowsTheStore()
        #expect(!relaunch.queriedEntries, "the relaunch fetched instead of restoring the cache")
    }
}
