import FailedBanksApp
import Foundation
import OpenCoreData
import Testing

/// Seed 003's point: with a batch size of 20, the list reads the ordered IDs, then loads one batch
/// of twenty banks when the first screen is shown, not all of them.
@Suite struct FailedBanksFirstScreenTests {
    @Test func readingTheFirstScreenLoadsOneBatchOfTwenty() throws {
        let store = try FailedBanksImportedStore()
        let context = store.newContext()
        try context.performAndWait {
            var made: BankList?
            let fetchSQL = try store.trace.selects { made = try BankList(context: context) }
            let list = try #require(made)
            // The fetch: one query for the ordered IDs, joined to the details for their date.
            #expect(fetchSQL.count == 1)
            #expect(fetchSQL.first?.hasPrefix("SELECT t0.\"_pk\" FROM \"FailedBankInfo\"") == true)
            #expect(fetchSQL.first?.contains("ORDER BY t1.\"closeDate\" DESC") == true)
            #expect(list.count == store.records.count)
            #expect(context.loadedCount(of: FailedBankInfo.self) == 0)

            // The first screen: one batch of banks, and their details prefetched with it.
            var screen: [BankRow] = []
            let screenSQL = store.trace.selects { screen = list.firstScreen() }
            #expect(screen.count == BankList.screenRows)
            #expect(screenSQL.count == 2)
            // Each statement's list has 32 places for the batch's 20 keys: the store pads a list
            // to a power of two with its last key, so that a few prepared statements serve every
            // batch.
            #expect(BankList.batchSize == 20)
            #expect(screenSQL.map(Self.boundKeys) == [32, 32])
            #expect(screenSQL.first?.contains("FROM \"FailedBankInfo\"") == true)
            #expect(screenSQL.last?.contains("FROM \"FailedBankDetails\"") == true)
            #expect(context.loadedCount(of: FailedBankInfo.self) == BankList.batchSize)
            // The batch's twenty details came with it, kept as faults with their values at hand;
            // the ten rows shown fired theirs, the ten below the screen did not.
            #expect(context.registeredCount(of: FailedBankDetails.self) == BankList.batchSize)
            #expect(context.loadedCount(of: FailedBankDetails.self) == BankList.screenRows)

            // Scrolling to the end of the batch reads nothing; the next row loads the next batch.
            #expect(store.trace.selects { _ = (BankList.screenRows..<BankList.batchSize).map { BankRow(list.bank(atRow: $0)) } }.isEmpty)
            #expect(context.loadedCount(of: FailedBankDetails.self) == BankList.batchSize)
            #expect(store.trace.selects { _ = BankRow(list.bank(atRow: BankList.batchSize)) }.count == 2)
            #expect(context.loadedCount(of: FailedBankInfo.self) == 2 * BankList.batchSize)
            #expect(context.registeredCount(of: FailedBankDetails.self) == 2 * BankList.batchSize)
            #expect(context.loadedCount(of: FailedBankDetails.self) == BankList.batchSize + 1)
        }
    }

    @Test func theListShowsTheOrderOfAFreshFetch() throws {
        let store = try FailedBanksImportedStore()
        let context = store.newContext()
        try context.performAndWait {
            let list = try BankList(context: context)
            let shown = (0..<list.count).map { list.bank(atRow: $0) }
            let fetched = try context.fetch(BankList.request())
            #expect(shown.map(\.objectID) == fetched.map(\.objectID))
            let dates = shown.compactMap { $0.details?.closeDate }
            #expect(dates.count == store.records.count)
            #expect(dates == dates.sorted(by: >))
            #expect(dates.first == store.records.map(\.closeDate).max())
            // Banks share close dates (several close on the same Friday): the store breaks the ties.
            #expect(Set(dates).count < dates.count)
        }
    }

    /// How many keys a batch query binds: `IN (?,?,…)`.
    private static func boundKeys(_ sql: String) -> Int {
        sql.filter { $0 == "?" }.count
    }
}
