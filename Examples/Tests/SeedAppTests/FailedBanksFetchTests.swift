import FailedBanksApp
import Foundation
import OpenCoreData
import Testing

/// The list's request fetched directly, without a controller: IDs first, then batch faulting, and
/// a sort through the details relationship that gives the same order in every store. (These were
/// OpenCoreDataTests' FailedBanksTests, on a model of their own; here they use the app's, so the
/// Failed Banks model is declared once.)
@Suite struct FailedBanksFetchTests {
    @Test func aFetchReadsTheIDsThenFaultsInABatchAtATime() throws {
        let store = try FailedBanksImportedStore()
        let context = store.newContext()
        try context.performAndWait {
            var banks: [FailedBankInfo] = []
            let fetchSQL = try store.trace.selects { banks = try context.fetch(BankList.request()) }
            #expect(banks.count == store.records.count)
            #expect(fetchSQL.count == 1)
            #expect(fetchSQL.first.map { $0.contains("LEFT JOIN \"FailedBankDetails\"") && $0.contains("DESC") } == true)

            let screenSQL = store.trace.selects { _ = banks.prefix(BankList.screenRows).map(BankRow.init) }
            #expect(screenSQL.count == 2)
            #expect(banks.prefix(BankList.batchSize).allSatisfy { !$0.isFault })
            #expect(banks.dropFirst(BankList.batchSize).allSatisfy { $0.isFault })
        }
    }

    @Test(arguments: [false, true])
    func theRelatedEntitysDateSortsAndFiltersInEveryStore(inMemory: Bool) throws {
        let store = try FailedBanksImportedStore(inMemory: inMemory)
        let context = store.newContext()
        let texasZip: Int32 = 77_500
        let (dates, texas) = try context.performAndWait {
            let request = BankList.request()
            let dates = try context.fetch(request).compactMap { $0.details?.closeDate }
            request.predicate = try FetchPredicate(format: "state == 'TX' AND details.zip >= %d", texasZip)
            let texas = try context.fetch(request).map(BankRow.init)
            return (dates, texas)
        }
        let expectedTexas = store.records.filter { $0.state == "TX" && $0.zip >= texasZip }
        #expect(dates.count == store.records.count && dates == dates.sorted(by: >))
        #expect(!expectedTexas.isEmpty)
        #expect(Set(texas.map(\.name)) == Set(expectedTexas.map(\.name)))
        #expect(texas.compactMap(\.closeDate) == texas.compactMap(\.closeDate).sorted(by: >))
    }
}
