import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// Random saves of countries with codes from a small pool, each under a random merge policy,
/// compared with a reference model of what the policies do: new objects meet the stored row (or
/// an earlier new object of the save) holding their code one after another; under object-trump
/// and overwrite the holder takes each newcomer's values, under store-trump and rollback it
/// keeps its own, under the error policy the save fails and changes nothing. A controller on the
/// saving context checks every batch against a fresh fetch.
///
/// Environment: `OCD_CONSTRAINT_FUZZ_ROUNDS=<n>` saves per seed (default 40).
@Suite struct ConstraintDifferentialTests {
    static let codes = ["A", "B", "C", "D", "E"]
    static let names: [String?] = ["North", "South", nil]

    struct Values: Equatable, CustomStringConvertible {
        var name: String?
        var population: Int64
        var description: String { "\(name ?? "nil") \(population)" }
    }

    /// The store as the policies should leave it.
    struct ReferenceStore {
        var rows: [String: Values] = [:]

        /// The rows after a save of `inserted` (in insertion order), `updated` stored rows and
        /// `deleted` ones; nil when the error policy refuses it.
        func saving(inserted: [(code: String, values: Values)], updated: [String: Values], deleted: Set<String>,
                    policy: PolicyKind) -> [String: Values]? {
            var holders = rows.filter { !deleted.contains($0.key) }
            for (code, values) in updated { holders[code] = values }
            var conflict = false
            for newcomer in inserted {
                if holders[newcomer.code] == nil {
                    holders[newcomer.code] = newcomer.values
                    continue
                }
                conflict = true
                if policy.newcomerWins { holders[newcomer.code] = newcomer.values }
            }
            return conflict && policy == .error ? nil : holders
        }
    }

    static var rounds: Int {
        ProcessInfo.processInfo.environment["OCD_CONSTRAINT_FUZZ_ROUNDS"].flatMap(Int.init) ?? 40
    }

    private func storedRows(_ stack: TestStack) throws -> [String: Values] {
        let reader = stack.newContext()
        return try reader.performAndWait {
            let countries = try reader.all(Country.self)
            #expect(Set(countries.map(\.code)).count == countries.count, "two stored rows share a code")
            return Dictionary(countries.map { ($0.code, Values(name: $0.name, population: $0.population)) },
                              uniquingKeysWith: { first, _ in first })
        }
    }

    @Test(arguments: StoreKind.withPostgres, [UInt64(1), 2, 3, 4])
    func randomSavesMatchTheReferenceModel(kind: StoreKind, seed: UInt64) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let context = stack.newContext()
        var random = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        var reference = ReferenceStore()
        var conflicts = 0
        var refusals = 0
        try context.performAndWait {
            let checker = try ConstraintBatchChecker(context)
            for round in 0..<Self.rounds {
                let policy = pick(PolicyKind.allCases)
                context.mergePolicy = policy.policy
                let stored = try context.all(Country.self, sortedBy: "code")
                var updated: [String: Values] = [:]
                for _ in 0..<Int(random.next() % 3) where !stored.isEmpty {
                    let country = pick(stored)
                    country.population = Int64(random.next() % 1_000)
                    if random.next() % 2 == 0 { country.name = pick(Self.names) }
                    updated[country.code] = Values(name: country.name, population: country.population)
                }
                var deleted: Set<String> = []
                if random.next() % 4 == 0, let country = stored.first(where: { updated[$0.code] == nil }) {
                    context.delete(country)
                    deleted.insert(country.code)
                }
                var inserted: [(code: String, values: Values)] = []
                for _ in 0..<Int(random.next() % 4) {
                    let country = Country(context: context)
                    country.code = pick(Self.codes)
                    country.name = pick(Self.names)
                    country.population = Int64(random.next() % 1_000)
                    inserted.append((country.code, Values(name: country.name, population: country.population)))
                }
                let heldBefore = Set(reference.rows.keys).subtracting(deleted)
                if inserted.contains(where: { heldBefore.contains($0.code) }) || Set(inserted.map(\.code)).count < inserted.count {
                    conflicts += 1
                }
                let expected = reference.saving(inserted: inserted, updated: updated, deleted: deleted, policy: policy)
                let error = context.saveCatching()
                if let expected {
                    #expect(error == nil, "round \(round), \(policy): \(String(describing: error))")
                    reference.rows = expected
                } else {
                    #expect((error as? ObjectGraphError)?.code == ObjectGraphError.constraintConflict, "round \(round): \(String(describing: error))")
                    refusals += 1
                    context.rollback()
                }
                let rows = try storedRows(stack)
                #expect(rows == reference.rows, "round \(round), \(policy), inserted \(inserted), updated \(updated), deleted \(deleted)")
                guard rows == reference.rows else { return }
                _ = context.registeredLive(Country.self)
            }
            try checker.verify()
        }
        #expect(conflicts > Self.rounds / 4 && refusals > 0, "the saves hardly conflicted: the test proved little")
    }
}
