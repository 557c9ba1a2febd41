import EarthquakesApp
import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// The list screen: a fetched results controller on the view context, which the provider keeps
/// current by merging the store's history after each batch request.
@Suite struct QuakeListTests {
    @Test func importedQuakesArriveThroughTheHistoryMerge() async throws {
        try await withQuakes { store in
            let list = try QuakeListMirror(store.provider)
            #expect(list.rows.sections.first?.items.isEmpty ?? true)

            try await store.provider.importQuakes(from: try FeedFixture.month(count: 36).data())
            // The remote-change observer merges on its own; the call returns once all is merged.
            await store.provider.fetchPersistentHistory()
            let batches = try list.applyReportedBatches()
            #expect(batches.count == 1)
            #expect(batches.first?.objectChanges.allSatisfy { $0.type == .insert } == true)
            #expect(list.rows.sections.first?.items.count == 36)
            // Newest first.
            let times = store.container.viewContext.performAndWait { list.controller.fetchedObjects?.map(\.time) ?? [] }
            #expect(times == times.sorted(by: >))
        }
    }

    @Test func theObserverAloneBringsTheImport() async throws {
        try await withQuakes { store in
            let list = try QuakeListMirror(store.provider)

            try await store.provider.importQuakes(from: try FeedFixture.month(count: 30).data())
            try await list.waitForCount(30)
            try list.applyReportedBatches()
            #expect(store.provider.lastToken != nil)
        }
    }

    @Test func revisedMagnitudesUpdateTheRows() async throws {
        try await withQuakes { store in
            let list = try QuakeListMirror(store.provider)
            try await store.provider.importQuakes(from: try FeedFixture.month(count: 24).data())
            await store.provider.fetchPersistentHistory()
            try list.applyReportedBatches()

            try await store.provider.importQuakes(from: try FeedFixture.month(count: 24, magnitudeShift: 0.5).data())
            await store.provider.fetchPersistentHistory()
            let batches = try list.applyReportedBatches()
            #expect(list.rows.sections.first?.items.count == 24)
            #expect(batches.flatMap(\.objectChanges).allSatisfy { $0.type == .update })
            let shown = store.container.viewContext.performAndWait {
                list.controller.fetchedObjects?.map(\.magnitude) ?? []
            }
            let revised = FeedFixture.month(count: 24, magnitudeShift: 0.5).quakes.reversed().compactMap(\.magnitude)
            #expect(shown == Array(revised), "the view context shows the revised magnitudes")
        }
    }

    @Test func batchDeleteRemovesRowsFromTheStoreAndTheList() async throws {
        try await withQuakes { store in
            let list = try QuakeListMirror(store.provider)
            let feed = FeedFixture.month(count: 36)
            try await store.provider.importQuakes(from: try feed.data())
            await store.provider.fetchPersistentHistory()
            try list.applyReportedBatches()

            // The user selects five rows of the list, as the sample's edit mode does.
            let viewContext = store.container.viewContext
            let selected = viewContext.performAndWait {
                [0, 1, 7, 20, 35].compactMap { list.controller.fetchedObjects?[$0] }.map { ($0.objectID, $0.code) }
            }
            try await store.provider.deleteQuakes(identifiedBy: selected.map(\.0))

            let batches = try list.applyReportedBatches()
            #expect(batches.flatMap(\.objectChanges).filter { $0.type == .delete }.count == 5)
            #expect(list.rows.sections.first?.items.count == 31)
            #expect(try store.count() == 31)
            #expect(Set(try store.stored().keys).isDisjoint(with: selected.map(\.1)))
            let stillRegistered = viewContext.performAndWait {
                selected.map(\.0).filter { viewContext.registeredObject(for: $0) != nil }
            }
            #expect(stillRegistered.isEmpty, "the view context still holds deleted quakes")

            // The history merge meets the deletion again afterwards and changes nothing.
            await store.provider.fetchPersistentHistory()
            #expect(try list.applyReportedBatches().isEmpty)
            #expect(list.controllerCount == 31)
        }
    }

    /// What the port keeps but no longer needs: a context that merges automatically receives the
    /// batch insert and the batch delete by itself, with no observer and no history code.
    @Test func aContextThatMergesAutomaticallyNeedsNoHistoryCode() async throws {
        try await withQuakes { store in
            let context = store.container.newBackgroundContext()
            context.automaticallyMergesChangesFromParent = true
            let list = try QuakeListMirror(store.provider, context: context)

            try await store.provider.importQuakes(from: try FeedFixture.month(count: 36).data())
            try await list.waitForCount(36)
            try list.applyReportedBatches()

            let doomed = try context.performAndWait {
                try context.fetch(QuakeListMirror.request()).prefix(4).map(\.objectID)
            }
            try await store.provider.deleteQuakes(identifiedBy: Array(doomed))
            try await list.waitForCount(32)
            try list.applyReportedBatches()
        }
    }
}
