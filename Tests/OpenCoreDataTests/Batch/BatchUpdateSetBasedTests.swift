import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// The SQL stores write a batch update whose values allow it (constants, integer arithmetic on
/// integer attributes) with one set-based statement. It must do exactly what the row by row
/// update (each row read, computed, checked and written back through the save path) does on the
/// same store: the same rows and row versions, the same history, the same result, the same error
/// naming the same row when a computed value does not fit.
@Suite struct BatchUpdateSetBasedTests {
    static let sequences = 10
    static let requestsPerSequence = 16
    /// Every sequence on SQLite; the first three on PostgreSQL, where each statement is a round
    /// trip (the ten took 35 s of the suite's CI time there).
    static let sequenceCases: [(StoreKind, Int)] = StoreKind.sqlStores.flatMap { kind in
        (0..<(kind == .sqlite ? sequences : 3)).map { (kind, $0) }
    }

    @Test(arguments: sequenceCases)
    func randomUpdatesMatchTheRowByRowUpdate(kind: StoreKind, sequence: Int) throws {
        let seed = 0x4255_5044 &+ UInt64(sequence)
        let setBased = try BatchUpdateFixture(seed: seed, kind: kind)
        let rowByRow = try BatchUpdateFixture(seed: seed, kind: kind)
        var random = SplitMix64(seed: seed ^ 0x5EED)
        var written = 0
        for step in 0..<Self.requestsPerSequence {
            let (make, text) = try BatchUpdateFixture.randomRequest(using: &random)
            let where_ = "seed \(seed), step \(step): \(text)"
            let tokens = (try setBased.stack.currentToken(), try rowByRow.stack.currentToken())
            let fast = setBased.run(try make(), rowByRow: false)
            let reference = rowByRow.run(try make(), rowByRow: true)
            #expect(fast.outcome == reference.outcome, "\(where_)")
            #expect(try setBased.rows() == rowByRow.rows(), "\(where_)")
            let (history, expectedHistory) = (try setBased.history(after: tokens.0), try rowByRow.history(after: tokens.1))
            #expect(history == expectedHistory, "\(where_)")
            if fast.setBased { written += 1 }
        }
        #expect(written > 0, "seed \(seed): no request was written by the set-based statement")
    }

    /// Requests each path must take: the ones the statement writes, and those it leaves to the
    /// row by row update, which reports what does not fit.
    @Test(arguments: StoreKind.sqlStores, [
        ("Sample", "int16 > 0", ["int32": "int16 * 2", "string": "'x'"], true),
        ("Sample", nil, ["int64": "int64 + 1"], false),            // Int64.max + 1 does not fit: refused
        ("Sample", nil, ["int16": "int64"], false),                 // values beyond an Int16: refused
        ("Sample", "int16 == 1", ["int16": "int16 / 0"], false),    // never computed in SQL
        ("Sample", nil, ["double": "double * 2"], false),           // floating point stays in memory
        ("Employee", "department.title == 'Sales'", ["salary": "12.5"], true),
        ("Person", "name BEGINSWITH 'Person 1'", ["nickname": "nil"], true),
    ] as [(String, String?, [String: String], Bool)])
    func takesTheStatementOnlyWhereItFits(kind: StoreKind, request: (String, String?, [String: String], Bool)) throws {
        let (entity, predicate, properties, setBased) = request
        let fixture = try BatchUpdateFixture(seed: 7, kind: kind)
        let reference = try BatchUpdateFixture(seed: 7, kind: kind)
        let make = { () throws -> BatchUpdateRequest in
            let request = BatchUpdateRequest(entityName: entity)
            request.predicate = try predicate.map { try FetchPredicate(format: $0) }
            request.propertiesToUpdate = try properties.mapValues { text -> Any in
                if text == "nil" { return NSNull() }
                if text.hasPrefix("'") { return String(text.dropFirst().dropLast()) }
                return try Double(text).map { $0 as Any } ?? BatchUpdateExpression(format: text)
            }
            request.resultType = .updatedObjectIDsResultType
            return request
        }
        let fast = fixture.run(try make(), rowByRow: false)
        #expect(fast.setBased == setBased, "\(fast.outcome)")
        #expect(fast.outcome == reference.run(try make(), rowByRow: true).outcome)
        #expect(try fixture.rows() == reference.rows())
    }

    #if Postgres
    /// Set-based updates of the same rows at once, from two coordinators: each locks the rows
    /// before it reads the values it overwrites, so every increment lands and each records as
    /// prior value the one the update before it wrote (read without the lock, two would record
    /// the same value).
    @Test func postgresConcurrentUpdatesRecordWhatTheyOverwrote() throws {
        let fixture = try BatchUpdateFixture(seed: 3, kind: .postgres)
        let stacks = [fixture.stack, try fixture.stack.reopened()]
        let token = try fixture.stack.currentToken()
        let updates = 12
        let setBased = Locked(0)
        DispatchQueue.concurrentPerform(iterations: updates) { index in
            let request = BatchUpdateRequest(entityName: "Sample")
            request.predicate = try? FetchPredicate(format: "int16 BETWEEN {-1000, 1000} AND int32 BETWEEN {-200000, 200000}")
            request.propertiesToUpdate = ["int32": (try? BatchUpdateExpression(format: "int32 + 1")) as Any]
            let result = try? stacks[index % 2].execute(request) as? BatchUpdateResult
            if result?.wasSetBased == true { setBased.withLock { $0 += 1 } }
        }
        #expect(setBased.withLock { $0 } == updates)
        let backend = try #require(fixture.stack.coordinator.persistentStores.first?.backend as? any PersistentHistoryBackend)
        let transactions = try backend.fetchHistory(from: .after(token), includingChanges: true)
        #expect(transactions.count == updates)
        var prior: [Int64: [Int64]] = [:]
        for change in transactions.flatMap(\.changes) {
            guard case .integer(let value) = change.priorValues["int32"] else { continue }
            prior[change.objectID.key, default: []].append(value)
        }
        let context = fixture.stack.newContext()
        let samples = try context.performAndWait {
            try context.fetch(FetchRequest<Sample>(entityName: "Sample")).map { ($0.objectID.key, Int64($0.int32), $0.int16) }
        }
        let updated = samples.filter { abs(Int($0.2)) <= 1000 && abs(Int($0.1) - updates) <= 200_000 }
        #expect(!updated.isEmpty)
        for (key, final, _) in updated {
            #expect(prior[key]?.sorted() == Array((final - Int64(updates))..<final), "row \(key): \(prior[key] ?? [])")
        }
    }

    /// PostgreSQL's text cannot hold U+0000, and its set-based update does not check for it: the
    /// library refuses such a constant before the store, with nothing written.
    @Test func postgresNeverGetsANullCharacter() throws {
        let fixture = try BatchUpdateFixture(seed: 7, kind: .postgres)
        let before = (try fixture.rows(), try fixture.stack.currentToken())
        let request = BatchUpdateRequest(entityName: "Sample")
        request.propertiesToUpdate = ["string": "a\u{0}b"]
        let result = fixture.run(request, rowByRow: false)
        #expect(result.outcome.hasPrefix("invalidValue (1550) key string") && result.outcome.contains("NUL character (U+0000)"),
                "\(result.outcome)")
        #expect(try fixture.rows() == before.0)
        #expect(try fixture.stack.currentToken() == before.1)
    }
    #endif
}
