import Foundation
@testable import OpenCoreData
import Testing

/// The porting report's case: an app imports the same feed twice. With the key under a
/// uniqueness constraint and an object-trump context, the second import updates the rows the
/// first made instead of doubling them (the sample app held 18,848 rows where 9,424 were meant).
@Suite struct ConstraintImportTests {
    static let feedSize = 9_424

    private func importFeed(_ stack: TestStack, edition: Int) throws {
        let context = stack.newContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.performAndWait {
            for index in 0..<Self.feedSize {
                let country = Country(context: context)
                country.code = "C\(index)"
                country.population = Int64(edition * 100_000 + index)
            }
            try context.save()
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func importingAFeedTwiceKeepsOneRowPerKey(kind: StoreKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let clock = ContinuousClock()
        try importFeed(stack, edition: 1)
        let start = clock.now
        try importFeed(stack, edition: 2)
        print("ConstraintImportTests (\(kind)): second import of \(Self.feedSize) rows, all conflicting, in \(clock.now - start)")
        let reader = stack.newContext()
        try reader.performAndWait {
            let request = Country.fetchRequest()
            #expect(try reader.count(for: request) == Self.feedSize)
            request.predicate = try FetchPredicate(format: "population < %d", 200_000)
            #expect(try reader.count(for: request) == 0, "rows kept the first import's values")
        }
    }
}
