import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// The SQL stores bind a batch insert's rows straight from the checked dictionaries
/// (`StoreRowBatch`), without an object ID or a snapshot per row: SQLite with one prepared
/// INSERT, PostgreSQL with one `unnest` of an array per column. It must do exactly what
/// inserting them as one save of new objects on the same store does: the same rows under the
/// same keys, the same history, the same result, and for a bad row the same error naming the
/// same row and key.
@Suite struct BatchInsertDirectTests {
    static let sequences = 8
    static let requestsPerSequence = 12
    /// Every sequence on SQLite; the first three on PostgreSQL, where each statement is a round
    /// trip (CI time).
    static let sequenceCases: [(StoreKind, Int)] = StoreKind.sqlStores.flatMap { kind in
        (0..<(kind == .sqlite ? sequences : 3)).map { (kind, $0) }
    }

    @Test(arguments: sequenceCases)
    func randomInsertsMatchInsertsThroughASave(kind: StoreKind, sequence: Int) throws {
        let seed = 0x4249_4E53 &+ UInt64(sequence)
        let direct = try BatchUpdateFixture(seed: seed, kind: kind, samples: 0)
        let throughSave = try BatchUpdateFixture(seed: seed, kind: kind, samples: 0)
        var random = SplitMix64(seed: seed)
        for step in 0..<Self.requestsPerSequence {
            let (entity, rows) = Self.randomRows(using: &random)
            let usesHandler = random.next() % 2 == 0
            let where_ = "seed \(seed), step \(step): \(rows.count) \(entity) rows\(usesHandler ? " from a handler" : "")"
            let tokens = (try direct.stack.currentToken(), try throughSave.stack.currentToken())
            let fast = direct.run(Self.request(entity, rows, usesHandler: usesHandler, throughSave: false))
            let reference = throughSave.run(Self.request(entity, rows, usesHandler: usesHandler, throughSave: true))
            #expect(fast == reference, "\(where_)")
            #expect(try direct.rows(of: ["Sample", "Person"]) == throughSave.rows(of: ["Sample", "Person"]), "\(where_)")
            #expect(try direct.history(after: tokens.0) == throughSave.history(after: tokens.1), "\(where_)")
        }
    }

    /// The quick check of a row (its dictionary's order, one conversion per key, written in
    /// place) against the careful one (sorted keys, every check spelled out), on random rows of
    /// every entity kind: the same values, or the same error.
    @Test func theQuickCheckAgreesWithTheCarefulCheck() throws {
        // The model a coordinator compiled.
        let model = try HistoryStack(.inMemory).coordinator.managedObjectModel
        var random = SplitMix64(seed: 0x5155_4943)
        for round in 0..<300 {
            let (name, rows) = Self.randomRows(using: &random)
            let entity = try #require(model.compiledEntity(named: name))
            let checker = BatchInsertRowChecker(entity: entity, tracksGivenSlots: round.isMultiple(of: 2))
            for (index, row) in rows.enumerated() {
                var batch = StoreRowBatch(entity: entity)
                let quick = Result { try checker.append(row, index: index, to: &batch) }
                let careful = Result { try checker.checkedValues(of: row, index: index) }
                switch (quick, careful) {
                case (.success(let given), .success(let expected)):
                    #expect(Array(batch.row(0)) .elementsEqual(expected.values, by: Self.same), "round \(round), \(name) row \(index): \(row)")
                    #expect(given == (checker.tracksGivenSlots ? expected.given : []))
                case (.failure(let error), .failure(let expected)):
                    #expect("\(error)" == "\(expected)", "round \(round), \(name) row \(index)")
                default:
                    Issue.record("round \(round), \(name) row \(index): quick \(quick), careful \(careful)")
                }
            }
        }
    }

    /// A batch's keys come from a sequence other sessions take keys from too: the history records
    /// one run per stretch of consecutive keys, each key in exactly one run.
    @Test(arguments: [
        ([], []),
        ([7], [(7, 1)]),
        ([1, 2, 3], [(1, 3)]),
        ([5, 6, 7, 10, 11, 20], [(5, 3), (10, 2), (20, 1)]),
        ([3, 5, 6, 8], [(3, 1), (5, 2), (8, 1)]),
    ] as [([Int64], [(Int64, Int64)])])
    func insertRunsFollowTheKeys(keys: [Int64], expected: [(Int64, Int64)]) throws {
        let model = try HistoryStack(.inMemory).coordinator.managedObjectModel
        let entity = try #require(model.compiledEntity(named: "Sample"))
        let runs = HistoryInsertRun.runs(of: entity, keys: keys)
        #expect(runs.map { "\($0.firstKey)+\($0.count)" } == expected.map { "\($0.0)+\($0.1)" })
        #expect(runs.allSatisfy { $0.entity === entity })
    }

    #if Postgres
    /// PostgreSQL's text cannot hold U+0000, and its batch insert does not check for it: the
    /// library refuses such a row before the store, naming the row and the key, with nothing
    /// written (no row, no history, no generation).
    @Test func postgresNeverGetsANullCharacter() throws {
        let fixture = try BatchUpdateFixture(seed: 1, kind: .postgres, samples: 0)
        let before = (try fixture.rows(), try fixture.stack.currentToken())
        let request = BatchInsertRequest(entityName: "Sample", objects: [["string": "fine"], ["int16": 3], ["string": "a\u{0}b"]])
        let outcome = fixture.run(request)
        #expect(outcome.hasPrefix("invalidValue (1550) key string row 2:") && outcome.contains("NUL character (U+0000)"), "\(outcome)")
        #expect(try fixture.rows() == before.0)
        #expect(try fixture.stack.currentToken() == before.1)
    }
    #endif

    /// Stored values compared as stores compare them (NaN is refused before it gets here).
    private static func same(_ left: PropertyValue, _ right: PropertyValue) -> Bool {
        "\(left)" == "\(right)"
    }

    /// A row with several bad values is refused naming the first bad key in key order, whatever
    /// order its dictionary keeps them in.
    @Test func namesTheFirstBadKeyInKeyOrder() throws {
        let stack = try HistoryStack(.sqlite)
        let row: [String: Any] = ["teamName": 7, "wins": "many", "qualifyingZone": 3, "imageName": 1.5]
        for _ in 0..<10 {
            let request = BatchInsertRequest(entityName: "Team", objects: [["teamName": "Spain", "qualifyingZone": "UEFA"], row])
            let error = batchError { _ = try stack.execute(request) }
            #expect(error?.key == "imageName" && error?.rowIndex == 1, "\(error?.message ?? "")")
        }
        #expect(try stack.storedTeams().isEmpty)
    }

    private static func request(_ entity: String, _ rows: [[String: Any]], usesHandler: Bool, throughSave: Bool) -> BatchInsertRequest {
        let request: BatchInsertRequest
        if usesHandler {
            var next = 0
            request = BatchInsertRequest(entityName: entity) { row in
                guard next < rows.count else { return true }
                row = rows[next]
                next += 1
                return false
            }
        } else {
            request = BatchInsertRequest(entityName: entity, objects: rows)
        }
        request.insertsThroughSave = throughSave
        request.resultType = .objectIDs
        return request
    }

    /// Rows of samples (every attribute type, values of many Swift types) or of people, now and
    /// then with a value the attribute cannot hold, a key the entity does not have, or a required
    /// attribute left out (each ends its request with an error).
    private static func randomRows(using random: inout SplitMix64) -> (entity: String, rows: [[String: Any]]) {
        func chance(perMille: UInt64) -> Bool { random.next() % 1000 < perMille }
        func pick(_ choices: [Any]) -> Any { choices[Int(random.next() % UInt64(choices.count))] }
        let entity = ["Sample", "Sample", "Person", "Employee"][Int(random.next() % 4)]
        var rows: [[String: Any]] = []
        for index in 0..<Int(1 + random.next() % 30) {
            var row: [String: Any] = [:]
            if entity == "Sample" {
                for (key, values) in Self.sampleValues where chance(perMille: 500) {
                    row[key] = pick(values)
                }
                for (key, values) in Self.badSampleValues where chance(perMille: 3) {
                    row[key] = pick(values)
                }
            } else {
                if !chance(perMille: 10) { row["name"] = "Person \(index)" }
                if chance(perMille: 500) { row["nickname"] = chance(perMille: 500) ? "P" : NSNull() }
                if entity == "Employee", chance(perMille: 700) { row["salary"] = Double(random.next() % 100) }
            }
            if chance(perMille: 10) { row["colour"] = "red" }
            rows.append(row)
        }
        return (entity, rows)
    }

    /// Values each attribute of a sample holds, in several Swift types.
    private static var sampleValues: [(String, [Any])] { [
        ("int16", [Int16(-5), 12, Int(300), Int64(-32768), NSNumber(value: 7)]),
        ("int32", [Int32(70_000), Int(-1), 2.0]),
        ("int64", [Int64.max, Int64.min, Int(3)]),
        ("int", [Int(1), Int16(2)]),
        ("double", [1.5, Float(0.25), Int(4)]),
        ("float", [Float(1.5), 2.25]),
        ("decimal", [Decimal(string: "1.25") ?? 0, 3, NSDecimalNumber(string: "2.5")]),
        ("string", ["text", NSNull(), ""]),
        ("bool", [true, false, 1]),
        ("date", [Date(timeIntervalSince1970: 1_000), NSNull()]),
        ("data", [Data([1, 2, 3]), [UInt8(9)]]),
        ("uuid", [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()]),
        ("url", [URL(fileURLWithPath: "/tmp/x")]),
    ] }

    /// Values the attributes of a sample cannot hold.
    private static var badSampleValues: [(String, [Any])] { [
        ("int16", [40_000, "x"]), ("int32", [2.5]), ("int64", [UInt64.max]), ("double", [Double.nan]),
        ("float", ["y"]), ("string", ["a\u{0}b", 5]), ("bool", [2]),
    ] }
}

extension BatchUpdateFixture {
    /// Runs a batch insert; returns its outcome in words, store-independent.
    func run(_ request: BatchInsertRequest) -> String {
        do {
            let result = try #require(try stack.execute(request) as? BatchInsertResult)
            return "inserted \((result.result as? [ManagedObjectID] ?? []).map(Self.name))"
        } catch {
            return describe(error)
        }
    }
}
