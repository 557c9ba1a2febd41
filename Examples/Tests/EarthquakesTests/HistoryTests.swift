import EarthquakesApp
import Foundation
import OpenCoreData
import Testing

/// The store's persistent history, as the provider's merge reads it.
@Suite struct HistoryTests {
    @Test func historyAfterATokenHoldsTheImportsWithTheirAuthor() async throws {
        try await withQuakes { store in
            try await store.provider.importQuakes(from: try FeedFixture.month(count: 12).data())
            let token = try store.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)

            try await store.provider.importQuakes(from: try FeedFixture.month(count: 20, magnitudeShift: 1).data())
            try await store.provider.importQuakes(from: try FeedFixture.month(count: 20, magnitudeShift: 2).data())

            let context = store.container.newBackgroundContext()
            let transactions = try context.performAndWait {
                let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
                let result = try context.execute(request) as? PersistentHistoryResult
                return result?.result as? [PersistentHistoryTransaction] ?? []
            }
            #expect(transactions.count == 2, "one transaction per batch insert after the token")
            #expect(transactions.allSatisfy { $0.author == "importQuakes" && $0.contextName == "importContext" })
            // The first after the token updates the 12 and inserts 8; the second updates all 20.
            let kinds = transactions.map { transaction in
                Dictionary(grouping: transaction.changes ?? [], by: \.changeType).mapValues(\.count)
            }
            #expect(kinds == [[.update: 12, .insert: 8], [.update: 20]])
        }
    }

    @Test func theMergeMovesTheTokenAndADeleteIsRecordedUnderItsAuthor() async throws {
        try await withQuakes { store in
            try await store.provider.importQuakes(from: try FeedFixture.month(count: 10).data())
            await store.provider.fetchPersistentHistory()
            let afterImport = try #require(store.provider.lastToken)

            let ids = try store.container.viewContext.performAndWait {
                try store.container.viewContext.fetch(FetchRequest<Quake>(entityName: "Quake")).prefix(3).map(\.objectID)
            }
            try await store.provider.deleteQuakes(identifiedBy: Array(ids))
            await store.provider.fetchPersistentHistory()
            #expect(store.provider.lastToken != afterImport)

            let context = store.container.newBackgroundContext()
            let transactions = try context.performAndWait {
                let request = PersistentHistoryChangeRequest.fetchHistory(after: afterImport)
                let result = try context.execute(request) as? PersistentHistoryResult
                return result?.result as? [PersistentHistoryTransaction] ?? []
            }
            #expect(transactions.map(\.author) == ["deleteQuakes"])
            #expect(transactions.first?.changes?.map(\.changeType) == [.delete, .delete, .delete])
            #expect(Set(transactions.first?.changes?.map(\.changedObjectID) ?? []) == Set(ids))
        }
    }
}
