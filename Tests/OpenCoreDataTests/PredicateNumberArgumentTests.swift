import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// `NSNumber` arguments in predicates, as code that builds predicates from `[String: Any]` or
/// JSON passes them: each must select exactly what the same Swift number selects, in SQL and in
/// memory. On Linux an NSNumber also passes `as Bool` (for 0 and 1) and `as Double` (rounding
/// integers beyond 2^53), so reading it by cast turned `int64 == NSNumber(2^53 + 1)` into a
/// comparison with 2^53.
@Suite struct PredicateNumberArgumentTests {
    @Test(arguments: StoreKind.withPostgres)
    func anNSNumberArgumentSelectsWhatTheSwiftNumberSelects(kind: StoreKind) throws {
        var random = SplitMix64(seed: 0x4e53_4e75_6d62)
        let edges: [Int64] = [0, 1, 2, -1, 1 << 53, 1 << 53 + 1, 1 << 53 - 1, .max, .max - 1, .min, 1 << 62 + 3]
        let values = edges + (0..<40).map { _ in Int64(bitPattern: random.next()) >> Int64(random.next() % 64) }
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            for value in values {
                let sample = Sample(context: context)
                sample.int64 = value
                sample.bool = value == 1
                sample.double = Double(value) / 4
            }
            try context.save()
            let samples = try context.all(Sample.self)
            for value in values {
                for (format, argument, swiftArgument) in [
                    ("int64 == %@", NSNumber(value: value) as Any, value as Any),
                    ("int64 >= %@", NSNumber(value: value), value),
                    ("int64 IN %@", [NSNumber(value: value), NSNumber(value: 7)], [value, 7]),
                    ("double == %@", NSNumber(value: Double(value) / 4), Double(value) / 4),
                    ("bool == %@", NSNumber(value: value == 1), value == 1),
                    ("int64 == %@", NSNumber(value: UInt64(bitPattern: value)), UInt64(bitPattern: value)),
                ] {
                    let predicate = try FetchPredicate(format: format, argument)
                    let swiftPredicate = try FetchPredicate(format: format, swiftArgument)
                    let request = Sample.fetchRequest()
                    request.predicate = predicate
                    let fetched = Set(try context.fetch(request).map(\.objectID))
                    let inMemory = Set(samples.filter { predicate.evaluate(with: $0) }.map(\.objectID))
                    let bySwiftNumber = Set(samples.filter { swiftPredicate.evaluate(with: $0) }.map(\.objectID))
                    #expect(fetched == bySwiftNumber, "\(format) with NSNumber \(argument), in the store")
                    #expect(inMemory == bySwiftNumber, "\(format) with NSNumber \(argument), in memory")
                }
            }
            let exact = try FetchPredicate(format: "int64 == %@", NSNumber(value: Int64(1 << 53 + 1)))
            #expect(samples.filter { exact.evaluate(with: $0) }.map(\.int64) == [1 << 53 + 1],
                    "2^53 + 1 is not 2^53")
        }
    }
}
