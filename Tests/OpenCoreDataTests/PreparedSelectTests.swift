import Foundation
import OpenCoreData
import Testing

/// The SQLite store keeps the SELECTs of fetches and counts prepared in each connection's cache,
/// up to a bound, and prepares the others per fetch: either way a fetch answers from the rows as
/// they are now.
@Suite struct PreparedSelectTests {
    /// Samples numbered 1…`count`.
    private static func stack(samples count: Int) throws -> TestStack {
        let stack = try TestStack()
        let context = stack.newContext()
        try context.performAndWait {
            for number in 1...count {
                let sample = Sample(context: context)
                sample.int64 = Int64(number)
            }
            try context.save()
        }
        return stack
    }

    @Test func aCountRunAgainSeesTheRowsSavedSince() throws {
        let stack = try Self.stack(samples: 10)
        let context = stack.newContext()
        try context.performAndWait {
            let request = Sample.fetchRequest()
            request.predicate = try FetchPredicate(format: "int64 > %@", 5)
            #expect(try context.count(for: request) == 5)
            let sample = Sample(context: context)
            sample.int64 = 11
            try context.save()
            #expect(try context.count(for: request) == 6)
            #expect(try context.fetch(request).map(\.int64).sorted() == Array(6...11))
        }
    }

    /// More distinct texts than the cache keeps (an `IN` list of each length makes a text of its
    /// own), twice over: those past the bound are prepared per fetch and answer the same.
    @Test func textsPastTheBoundAnswerAsTheCachedOnes() throws {
        let stack = try Self.stack(samples: 400)
        let context = stack.newContext()
        try context.performAndWait {
            for _ in 0..<2 {
                for length in 1...300 {
                    let request = Sample.fetchRequest()
                    request.predicate = try FetchPredicate(format: "int64 IN %@", Array(1...Int64(length)))
                    #expect(try context.count(for: request) == length)
                    request.fetchLimit = 1
                    request.sortDescriptors = [FetchSortDescriptor(key: "int64", ascending: false)]
                    #expect(try context.fetch(request).first?.int64 == Int64(length))
                }
            }
        }
    }
}
