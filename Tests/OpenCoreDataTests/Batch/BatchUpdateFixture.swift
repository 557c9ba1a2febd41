import FetchedResultsChecking
import Foundation
import GRDB
@testable import OpenCoreData
import Testing

/// An SQLite store of random rows, made from a seed so that two fixtures of one seed hold the
/// same rows under the same keys, and what a batch update did to it, in comparable form: its
/// result or error, every stored row with its version, and the history it recorded.
final class BatchUpdateFixture {
    let stack: HistoryStack
    private let storeIdentifier: String

    /// `samples` rows of every attribute type, with extreme integers among them, and people and
    /// employees of two departments; or, with `model`, whatever `fill` saves.
    init(seed: UInt64, kind: StoreKind = .sqlite, model: ManagedObjectModel? = nil, samples: Int = 40,
         fill: ((ManagedObjectContext) throws -> Void)? = nil) throws {
        stack = try HistoryStack(kind, model: model)
        storeIdentifier = try #require(stack.coordinator.persistentStores.first?.identifier)
        var random = SplitMix64(seed: seed)
        try stack.save { context in
            if let fill { return try fill(context) }
            for _ in 0..<samples { Self.insertSample(into: context, using: &random) }
            // The integers' extremes, in every fixture.
            for (int16, int64) in [(Int16.min, Int64.min), (Int16.max, Int64.max), (1, -1)] {
                let sample = Self.insertSample(into: context, using: &random)
                sample.int16 = int16
                sample.int64 = int64
            }
            let departments = ["Sales", "Research"].map { title in
                let department = Department(context: context)
                department.title = title
                return department
            }
            for index in 0..<12 {
                let person = index.isMultiple(of: 3) ? Person(context: context) : Employee(context: context)
                person.name = "Person \(index)"
                person.nickname = index.isMultiple(of: 2) ? "P\(index)" : nil
                if let employee = person as? Employee {
                    employee.salary = Double(random.next() % 500)
                    employee.department = departments[index % 2]
                }
            }
        }
    }

    @discardableResult
    private static func insertSample(into context: ManagedObjectContext, using random: inout SplitMix64) -> Sample {
        let sample = Sample(context: context)
        let extremes16: [Int16] = [.min, .max, -1, 0, 1]
        let extremes64: [Int64] = [.min, .max, -1, 0, 1, 1 << 40]
        sample.int16 = random.next() % 4 == 0 ? extremes16[Int(random.next() % 5)] : Int16(truncatingIfNeeded: Int(random.next() % 2000) - 1000)
        sample.int32 = random.next() % 5 == 0 ? [Int32.min, Int32.max][Int(random.next() % 2)] : Int32(truncatingIfNeeded: Int(random.next() % 200_000) - 100_000)
        sample.int64 = random.next() % 4 == 0 ? extremes64[Int(random.next() % 6)] : Int64(random.next() % 1_000_000) - 500_000
        sample.int = Int(random.next() % 100) - 50
        sample.double = Double(Int(random.next() % 1000) - 500) / 4
        sample.float = Float(Int(random.next() % 100)) / 8
        sample.string = random.next() % 4 == 0 ? nil : ["alpha", "beta", "ab", "zeta"][Int(random.next() % 4)]
        sample.bool = random.next() % 2 == 0
        return sample
    }

    /// A random batch update of the fixture's entities, made anew by each call of the closure
    /// returned (a request is run once per store), and a description for failure messages.
    static func randomRequest(using random: inout SplitMix64) throws -> (make: () throws -> BatchUpdateRequest, text: String) {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let entity: String
        var predicate: String?
        var properties: [String: String] = [:]
        switch random.next() % 10 {
        case 0, 1:
            entity = pick(["Person", "Employee"])
            predicate = pick([nil, "name BEGINSWITH 'Person 1'", "nickname == nil"])
            properties[pick(["nickname", "name"])] = pick(["'Nick'", "nil"])
        case 2:
            entity = "Employee"
            predicate = pick(["department.title == 'Sales'", "salary > 100", "department.title == 'Research' AND salary < 300"])
            properties["salary"] = pick(["12.5", "salary * 2", "salary + 1"])
        default:
            entity = "Sample"
            predicate = pick([nil, "int16 > 0", "int32 < 0", "int64 >= 0", "string BEGINSWITH 'a'", "bool == YES",
                              "int16 > 0 AND int64 < 0", "string == nil", "int BETWEEN {-10, 10}"])
            let integers = ["int16", "int32", "int64", "int"]
            for _ in 0..<(1 + random.next() % 3) {
                let target = pick(integers + ["double", "string", "bool"])
                switch target {
                case "double": properties[target] = pick(["0.25", "double * 2", "int16 + 1", "double"])
                case "string": properties[target] = pick(["'x'", "nil", "string"])
                case "bool": properties[target] = pick(["YES", "NO"])
                default:
                    let operand = pick(["0", "1", "-1", "2", "7", "1000", "0.5", "2.0", "40000", "3000000000"])
                    properties[target] = pick([
                        pick(["5", "-3", "70000", "nil"]),
                        "\(pick(integers)) \(pick(["+", "-", "*", "/"])) \(operand)",
                        pick(integers + ["double"]),
                    ])
                }
            }
        }
        let text = "\(entity) where \(predicate ?? "-") set \(properties.sorted { $0.key < $1.key })"
        let make = { () throws -> BatchUpdateRequest in
            let request = BatchUpdateRequest(entityName: entity)
            request.predicate = try predicate.map { try FetchPredicate(format: $0) }
            request.propertiesToUpdate = try properties.mapValues { try Self.value($0) }
            request.resultType = .updatedObjectIDsResultType
            return request
        }
        return (make, text)
    }

    /// A property's new value from its text: a quoted string, a number, YES/NO, nil, or an expression.
    private static func value(_ text: String) throws -> Any {
        if text == "nil" { return NSNull() }
        if text == "YES" || text == "NO" { return text == "YES" }
        if text.hasPrefix("'") { return String(text.dropFirst().dropLast()) }
        if let integer = Int64(text) { return integer }
        if let double = Double(text) { return double }
        return try BatchUpdateExpression(format: text)
    }

    /// Runs `request` (row by row if asked); returns its outcome in words, store-independent,
    /// and whether the store wrote it with one statement.
    func run(_ request: BatchUpdateRequest, rowByRow: Bool) -> (outcome: String, setBased: Bool) {
        request.writesRowByRow = rowByRow
        do {
            let result = try #require(try stack.execute(request) as? BatchUpdateResult)
            let ids = (result.result as? [ManagedObjectID] ?? []).map(Self.name)
            return ("updated \(ids)", result.wasSetBased)
        } catch {
            return (describe(error), false)
        }
    }

    /// An error in words, without the store's identifier.
    func describe(_ error: any Error) -> String {
        guard let error = error as? BatchRequestError else { return "\(error)" }
        let message = error.message.replacingOccurrences(of: storeIdentifier, with: "STORE")
        return "\(error.code) key \(error.key ?? "-") row \(error.rowIndex.map(String.init) ?? "-"): \(message)"
    }

    static func name(_ id: ManagedObjectID) -> String {
        "\(id.entity.name ?? "?")/\(id.uriRepresentation().lastPathComponent)"
    }

    /// Every stored row of the tables, with its version, as the store holds it, and the history's
    /// changes (properties in the order stored) and the values they overwrote.
    func rows(of tables: [String] = ["Sample", "Person"]) throws -> [String] {
        #if Postgres
        if let schema = stack.postgresSchema {
            return try schema.rows(of: tables.map { ($0, "\"_pk\"") }
                + [("_ocd_history_change", "\"_pk\""), ("_ocd_history_prior_value", "\"change\", \"attribute\"")])
        }
        #endif
        let database = try DatabaseQueue(path: stack.storeURL.path)
        return try database.read { db in
            try tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY \"_pk\"").map { "\(table) \($0)" }
            } + Row.fetchAll(db, sql: "SELECT * FROM \"_ocd_history_change\" ORDER BY \"_pk\"").map { "change \($0)" }
                + Row.fetchAll(db, sql: "SELECT * FROM \"_ocd_history_prior_value\" ORDER BY 1, 2").map { "prior \($0)" }
        }
    }

    /// The history after `token`: each transaction's number and author, and each change's type,
    /// object and updated properties (a set).
    func history(after token: PersistentHistoryToken) throws -> [String] {
        try stack.transactions(after: token).flatMap { transaction in
            ["\(transaction.transactionNumber) \(transaction.author ?? "-")"] + (transaction.changes ?? []).map { change in
                "\(change.changeID) \(change.changeType) \(Self.name(change.changedObjectID)) \(change.updatedProperties?.map(\.name).sorted() ?? [])"
            }
        }
    }
}
