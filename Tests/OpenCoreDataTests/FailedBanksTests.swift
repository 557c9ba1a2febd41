import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Seed 003's Failed Banks: bank info and its details, listed by the details' close date, newest
/// first, twenty at a time.
final class FailedBankInfo: ManagedObject {
    @Managed var name: String
    @Managed var city: String
    @Managed var state: String
    @Managed(inverse: "info", deleteRule: .cascade) var details: FailedBankDetails?
}

final class FailedBankDetails: ManagedObject {
    @Managed var closeDate: Date
    @Managed var updatedDate: Date
    @Managed var zip: Int32 = 0
    @Managed(inverse: "details") var info: FailedBankInfo?
}

@Suite struct FailedBanksTests {
    static let bankCount = 300

    private func importBanks(into stack: TestStack) throws {
        let context = stack.newContext()
        try context.performAndWait {
            var generator = SplitMix64(seed: 3)
            let states = ["CA", "FL", "GA", "IL", "TX"]
            for index in 0..<Self.bankCount {
                let info = FailedBankInfo(context: context)
                info.name = "Bank \(index)"
                info.city = "City \(index % 37)"
                info.state = states[index % states.count]
                let details = FailedBankDetails(context: context)
                // Distinct days, in an order unrelated to insertion.
                details.closeDate = Date(timeIntervalSinceReferenceDate: Double((index * 7919) % Self.bankCount) * 86_400)
                details.updatedDate = details.closeDate.addingTimeInterval(Double(generator.next() % 1000))
                details.zip = Int32(10_000 + index)
                info.details = details
            }
            try context.save()
        }
    }

    @Test func firstScreenReadsTheIDsAndOneBatch() throws {
        let model = try ManagedObjectModel(managedObjectClasses: [FailedBankInfo.self, FailedBankDetails.self])
        let stack = try TestStack(.sqlite, model: model, recordingSQL: true)
        let log = try #require(stack.log)
        try importBanks(into: stack)
        let context = stack.newContext()
        try context.performAndWait {
            let request = FailedBankInfo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "details.closeDate", ascending: false)]
            request.fetchBatchSize = 20
            request.relationshipKeyPathsForPrefetching = ["details"]
            var banks: [FailedBankInfo] = []
            let fetchSQL = try log.selects { banks = try context.fetch(request) }
            #expect(banks.count == Self.bankCount)
            #expect(fetchSQL.count == 1)
            #expect(fetchSQL[0].contains("LEFT JOIN \"FailedBankDetails\"") && fetchSQL[0].contains("DESC"))

            // The first screen: ten rows, with their details, as the table view shows them.
            var screen: [String] = []
            let screenSQL = log.selects {
                for bank in banks.prefix(10) {
                    screen.append("\(bank.name), \(bank.city) \(bank.state) closed \(bank.details?.closeDate.timeIntervalSinceReferenceDate ?? -1)")
                }
            }
            // One batch of banks, and their details prefetched with it.
            #expect(screenSQL.count == 2)
            #expect(banks.prefix(20).allSatisfy { !$0.isFault })
            #expect(banks.dropFirst(20).allSatisfy { $0.isFault })
            let closeDates = banks.prefix(20).compactMap { $0.details?.closeDate }
            #expect(closeDates == closeDates.sorted(by: >))
            #expect(closeDates.first == Date(timeIntervalSinceReferenceDate: Double(Self.bankCount - 1) * 86_400))
            #expect(screen.count == 10)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func sortedByTheRelatedEntitysDateInEveryStore(kind: StoreKind) throws {
        let model = try ManagedObjectModel(managedObjectClasses: [FailedBankInfo.self, FailedBankDetails.self])
        let stack = try TestStack(kind, model: model)
        try importBanks(into: stack)
        let context = stack.newContext()
        let (all, texas) = try context.performAndWait {
            let request = FailedBankInfo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "details.closeDate", ascending: false)]
            request.fetchBatchSize = 20
            let all = try context.fetch(request).compactMap { $0.details?.closeDate }
            request.predicate = try FetchPredicate(format: "state == 'TX' AND details.zip >= %d", 10_100)
            let texas = try context.fetch(request).map { "\($0.state) \($0.details?.zip ?? 0)" }
            return (all, texas)
        }
        #expect(all.count == Self.bankCount && all == all.sorted(by: >))
        #expect(texas.count == 40 && texas.allSatisfy { $0.hasPrefix("TX") })
    }
}
