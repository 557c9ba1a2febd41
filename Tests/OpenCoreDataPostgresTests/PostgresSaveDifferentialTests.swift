#if Postgres
import Foundation
import OpenCoreData
import Testing

/// Random save sequences run side by side on SQLite and PostgreSQL: two contexts on two
/// coordinators per store, each keeping the objects it read (so that their saves conflict), each
/// save under a random merge policy; after every save, the outcome, every object's row and the
/// persistent history (read whole, and after the token of the step before) must be the same on
/// both stores.
@Suite struct PostgresSaveDifferentialTests {
    /// One change of a step; objects are named by label, the same on both stores.
    enum Operation {
        case insertNode(label: String, values: [String: Any], parent: String?)
        case updateNode(label: String, values: [String: Any])
        case setParent(label: String, parent: String?)
        case link(label: String, other: String, add: Bool)
        case delete(label: String)
        case insertKeyed(label: String, code: Int32, value: String)
        case updateKeyed(label: String, code: Int32?, value: String)
    }

    struct Step {
        var writer: Int
        var policy: MergePolicy
        var operations: [Operation]
    }

    /// A seeded generator (SplitMix64), so that a failing seed can be run again.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func steps(seed: UInt64, count: Int) -> [Step] {
        var random = Generator(state: seed)
        var nodes: [String] = []
        var keyed: [String] = []
        let policies: [MergePolicy] = [.error, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback]
        func values() -> [String: Any] {
            var result: [String: Any] = [:]
            for (name, choices) in SaveModelValues.table where Bool.random(using: &random) {
                result[name] = choices.randomElement(using: &random)
            }
            return result
        }
        return (0..<count).map { index in
            var operations: [Operation] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let existing = nodes.randomElement(using: &random)
                switch Int.random(in: 0..<9, using: &random) {
                case 0, 1:
                    let label = "n\(index)-\(operations.count)"
                    operations.append(.insertNode(label: label, values: values(), parent: Bool.random(using: &random) ? existing : nil))
                    nodes.append(label)
                case 2:
                    if let existing { operations.append(.updateNode(label: existing, values: values())) }
                case 3:
                    if let existing { operations.append(.setParent(label: existing, parent: nodes.randomElement(using: &random))) }
                case 4:
                    if let existing, let other = nodes.randomElement(using: &random) {
                        operations.append(.link(label: existing, other: other, add: Int.random(in: 0..<3, using: &random) > 0))
                    }
                case 5:
                    if let existing { operations.append(.delete(label: existing)) }
                case 6:
                    let label = "k\(index)-\(operations.count)"
                    operations.append(.insertKeyed(label: label, code: Int32.random(in: 0..<6, using: &random), value: "v\(index)"))
                    keyed.append(label)
                case 7:
                    if let label = keyed.randomElement(using: &random) {
                        let code = Bool.random(using: &random) ? Int32.random(in: 0..<6, using: &random) : nil
                        operations.append(.updateKeyed(label: label, code: code, value: "u\(index)"))
                    }
                default:
                    if let label = keyed.randomElement(using: &random) { operations.append(.delete(label: label)) }
                }
            }
            return Step(writer: Int.random(in: 0..<2, using: &random), policy: policies.randomElement(using: &random)!,
                        operations: operations)
        }
    }

    /// One store of the comparison: its two writing contexts and the IDs of the labelled objects.
    final class Side {
        let store: SaveTestStore
        let reader: PersistentContainer
        let writers: [ManagedObjectContext]
        var ids: [String: ManagedObjectID] = [:]

        init(_ kind: SaveTestStore.Kind) throws {
            store = try SaveTestStore(kind)
            reader = try store.container()
            writers = try [store.container().newBackgroundContext(), store.container().newBackgroundContext()]
        }

        /// Runs a step on one writer and saves; returns the outcome in the tests' form.
        func run(_ step: Step) -> String {
            let context = writers[step.writer]
            var ids = self.ids
            let result = context.performAndWait { () -> String in
                context.mergePolicy = step.policy
                // Recorded with each transaction: one writer has an author, both a name.
                context.transactionAuthor = step.writer == 0 ? "author-0" : nil
                context.name = "writer-\(step.writer)"
                var inserted: [(String, ManagedObject)] = []
                func object(_ label: String?) -> ManagedObject? {
                    guard let label else { return nil }
                    if let new = inserted.first(where: { $0.0 == label }) { return new.1 }
                    guard let id = ids[label], let object = try? context.existingObject(with: id), !object.isDeleted else { return nil }
                    return object
                }
                for operation in step.operations {
                    switch operation {
                    case .insertNode(let label, let values, let parent):
                        guard let node = try? EntityDescription.insertNewObject(forEntityName: "Node", into: context) else { continue }
                        node.setValue(label, forKey: "label")
                        for (name, value) in values { node.setValue(value, forKey: name) }
                        node.setValue(object(parent), forKey: "parent")
                        inserted.append((label, node))
                    case .updateNode(let label, let values):
                        for (name, value) in values { object(label)?.setValue(value, forKey: name) }
                    case .setParent(let label, let parent):
                        object(label)?.setValue(object(parent), forKey: "parent")
                    case .link(let label, let other, let add):
                        guard let source = object(label), let destination = object(other) else { continue }
                        let links = source.mutableSetValue(forKey: "links")
                        if add { links.add(destination) } else { links.remove(destination) }
                    case .delete(let label):
                        if let target = object(label) { context.delete(target) }
                    case .insertKeyed(let label, let code, let value):
                        guard let row = try? EntityDescription.insertNewObject(forEntityName: "Keyed", into: context) else { continue }
                        row.setValue(label, forKey: "label")
                        row.setValue(code, forKey: "code")
                        row.setValue(value, forKey: "value")
                        inserted.append((label, row))
                    case .updateKeyed(let label, let code, let value):
                        if let code { object(label)?.setValue(code, forKey: "code") }
                        object(label)?.setValue(value, forKey: "value")
                    }
                }
                let error = context.saveCatching()
                if error != nil { context.rollback() }
                for (label, object) in inserted where !object.objectID.isTemporaryID {
                    ids[label] = object.objectID
                }
                return errorSummary(error)
            }
            self.ids = ids
            return result
        }

        var history: any PersistentHistoryBackend {
            get throws { try #require(reader.persistentStoreCoordinator.persistentStores.first?.backend as? any PersistentHistoryBackend) }
        }

        /// The history from `start`, each transaction with its changes, objects named by label
        /// and values in a form that tells every stored value apart; not the timestamps.
        func history(from start: HistoryStart) throws -> [String] {
            let labels = Dictionary(ids.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
            func text(_ values: [String: PropertyValue]) -> String {
                values.sorted { $0.key < $1.key }.map { "\($0.key)=\(Side.canonical($0.value))" }.joined(separator: " ")
            }
            return try history.fetchHistory(from: start, includingChanges: true).map { record in
                "transaction \(record.number) author=\(record.author ?? "nil") context=\(record.contextName ?? "nil") "
                    + "\(record.bundleID) \(record.processID): " + record.changes.map { change in
                        "[\(change.changeID) \(change.type) \(change.objectID.entity.entityName) \(labels[change.objectID] ?? "?") "
                            + "updated=\(change.updatedProperties) tombstone={\(text(change.tombstone))} prior={\(text(change.priorValues))}]"
                    }.joined(separator: " ")
            }
        }

        static func canonical(_ value: PropertyValue) -> String {
            switch value {
            case .double(let double): "double \(double.bitPattern)"
            case .date(let date): "date \(date.timeIntervalSinceReferenceDate.bitPattern)"
            case .data(let data): "data \(data.count) \(data.hashValue)"
            default: "\(value)"
            }
        }

        /// Every labelled object's row, by label.
        func rows(_ labels: [String]) -> [String] {
            let present = labels.filter { ids[$0] != nil }
            return zip(present, dump(present.compactMap { ids[$0] }, in: reader)).map { "\($0): \($1)" }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomSavesLeaveTheSameRowsAsSQLite(seed: UInt64) throws {
        let sqlite = try Side(.sqlite)
        let postgres = try Side(.postgres)
        var labels: [String] = []
        var outcomes: [String: Int] = [:]
        var transactions = 0
        var commits = 0
        for (index, step) in Self.steps(seed: seed, count: 40).enumerated() {
            let tokens = try (sqlite.history.currentHistoryToken(), postgres.history.currentHistoryToken())
            let expected = sqlite.run(step)
            let actual = postgres.run(step)
            outcomes[expected, default: 0] += 1
            #expect(actual == expected, "seed \(seed), step \(index): \(step.operations)")
            labels = Array(Set(sqlite.ids.keys).union(postgres.ids.keys)).sorted()
            #expect(Set(sqlite.ids.keys) == Set(postgres.ids.keys), "seed \(seed), step \(index)")
            let expectedRows = sqlite.rows(labels)
            let actualRows = postgres.rows(labels)
            #expect(actualRows == expectedRows, "seed \(seed), step \(index): \(step.operations)")
            let expectedHistory = try sqlite.history(from: .beginning)
            let actualHistory = try postgres.history(from: .beginning)
            #expect(actualHistory == expectedHistory, "seed \(seed), step \(index): \(step.operations)")
            let expectedStep = try sqlite.history(from: .after(tokens.0))
            #expect(try postgres.history(from: .after(tokens.1)) == expectedStep, "seed \(seed), step \(index)")
            // A save commits at most one transaction, and records it: the generations advance alike.
            let advances = try (sqlite.history.currentHistoryToken().transactionNumber - tokens.0.transactionNumber,
                                postgres.history.currentHistoryToken().transactionNumber - tokens.1.transactionNumber)
            #expect(advances.0 == advances.1 && advances.0 == Int64(expectedStep.count) && advances.0 <= 1, "seed \(seed), step \(index)")
            if expected != "saved" { #expect(advances.0 == 0) }
            commits += Int(advances.0)
            transactions = expectedHistory.count
            if actualRows != expectedRows || actual != expected || actualHistory != expectedHistory { break }
        }
        // Every save that committed was recorded, with its changes.
        #expect(transactions == commits && commits > 10)
        // The sequence did make conflicts that the policies resolved, and some saves failed.
        #expect(outcomes["saved", default: 0] > 10)
        #expect(!labels.isEmpty)
    }
}
#endif
