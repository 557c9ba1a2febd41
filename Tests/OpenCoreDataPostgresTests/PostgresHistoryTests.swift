#if Postgres
import Foundation
import OpenCoreData
import Testing

/// The PostgreSQL store's persistent history through the public API, against the SQLite store's:
/// the same requests (fetches after tokens and dates, deletions, readers and retention, a
/// coordinator with tracking off) give the same transactions and the same errors. The random
/// save sequences of ``PostgresSaveDifferentialTests`` compare the recorded changes themselves.
@Suite struct PostgresHistoryTests {
    /// Saves a `Node` labelled `label` (inserted if new, else its `text` changed) in `container`;
    /// returns the transaction's token (nil when nothing was recorded).
    @discardableResult
    static func save(_ label: String, in container: PersistentContainer, author: String? = nil,
                     delete: Bool = false) throws -> PersistentHistoryToken? {
        let context = container.newBackgroundContext()
        context.transactionAuthor = author
        try context.performAndWait {
            let node = try EntityDescription.insertNewObject(forEntityName: "Node", into: context)
            node.setValue(label, forKey: "label")
            node.setValue(Decimal(string: "1.25"), forKey: "amount")
            try context.save()
            if delete {
                context.delete(node)
                try context.save()
            }
        }
        return try container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
    }

    /// Runs a history request on a new context of `container`.
    static func run(_ request: PersistentHistoryChangeRequest, in container: PersistentContainer) -> String {
        let context = container.newBackgroundContext()
        do {
            let result = try context.performAndWait { try context.execute(request) }
            guard let value = (result as? PersistentHistoryResult)?.result else { return "no result" }
            if let transactions = value as? [PersistentHistoryTransaction] {
                return transactions.map { transaction in
                    "\(transaction.transactionNumber) \(transaction.author ?? "-"): "
                        + (transaction.changes ?? []).map { change in
                            "\(change.changeType) \(change.tombstone.map { "\($0.count) kept" } ?? "")"
                        }.joined(separator: ", ")
                }.joined(separator: "; ")
            }
            return "\(value)"
        } catch let error as PersistentHistoryError {
            return "\(error.code) current \(error.currentToken?.description.split(separator: ":").last ?? "nil")"
        } catch {
            return "\(type(of: error)) \(error)"
        }
    }

    /// One scenario of history requests on a store of `kind`; what each step gave, in order.
    static func scenario(_ kind: SaveTestStore.Kind) throws -> [String] {
        let store = try SaveTestStore(kind)
        let container = try store.container()
        var log: [String] = []
        func fetch(after token: PersistentHistoryToken?) {
            log.append(run(.fetchHistory(after: token), in: container))
        }
        let start = Date()
        let first = try save("a", in: container, author: "alice")
        let second = try save("b", in: container, author: "bob", delete: true)
        fetch(after: nil)
        fetch(after: first)
        fetch(after: second)
        log.append(run(.fetchHistory(after: start.addingTimeInterval(-60)), in: container))
        log.append(run(.fetchHistory(after: Date().addingTimeInterval(60)), in: container))

        // A coordinator that records nothing still advances the generation: a gap.
        let untracked = try store.container { $0.isPersistentHistoryTrackingEnabled = false }
        log.append("untracked token \(String(describing: try save("c", in: untracked)))")
        fetch(after: second)
        let afterGap = try container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        fetch(after: afterGap)
        let third = try save("d", in: container)
        fetch(after: afterGap)

        // Deleting through a token expires the tokens before it, not those after.
        log.append(run(.deleteHistory(before: first), in: container))
        fetch(after: nil)
        fetch(after: first)
        fetch(after: third)

        // A reader holds history that the retention rule (here: everything older than now)
        // would prune; once removed, the next save prunes it.
        let pruning = try store.container {
            $0.persistentHistoryRetention = PersistentHistoryRetention(window: 0, readerTimeout: 3_600, checkInterval: 0)
        }
        try pruning.persistentStoreCoordinator.setPersistentHistoryReader("reader", readUpTo: try #require(third))
        try save("e", in: pruning)
        fetch(after: nil)
        try pruning.persistentStoreCoordinator.removePersistentHistoryReader("reader")
        try save("f", in: pruning)
        fetch(after: nil)
        fetch(after: third)
        return log
    }

    @Test func historyRequestsGiveWhatSQLiteGives() throws {
        let expected = try Self.scenario(.sqlite)
        let actual = try Self.scenario(.postgres)
        #expect(actual == expected)
        // The scenario did see transactions, expired tokens and deletions.
        #expect(expected.contains { $0.contains("alice") } && expected.contains { $0.contains("persistentHistoryTokenExpired") })
    }

    /// A store made before history (no history tables, no `next_change`, no triggers) gains them
    /// on its next load, and records its saves from then on.
    @Test func storeMadeBeforeHistoryGainsItOnLoad() throws {
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let made = try store.container()
        try Self.save("a", in: made)
        let catalog = try schema.catalog()
        try schema.execute("""
            DROP TABLE \(schema.qualified("_ocd_history_transaction")), \(schema.qualified("_ocd_history_change")),
                \(schema.qualified("_ocd_history_tombstone")), \(schema.qualified("_ocd_history_prior_value")),
                \(schema.qualified("_ocd_history_reader"))
            """)
        try schema.execute("ALTER TABLE \(schema.qualified("_ocd_generation")) DROP COLUMN \"next_change\"")
        try schema.execute("DROP FUNCTION \(schema.qualified("_ocd_count_write"))() CASCADE")
        #expect(try schema.catalog() != catalog)
        let reopened = try store.container()
        #expect(try schema.catalog() == catalog)
        #expect(try schema.rows("""
            SELECT count(*)::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = '\(schema.name)' AND t.tgname = '_ocd_generation'
            """) == ["3"])
        // The first save's transaction went with the tables: history after it is complete.
        let token = try Self.save("b", in: reopened, author: "after")
        #expect(token?.description.hasSuffix(":2") == true)
        #expect(Self.run(.fetchHistory(after: nil as PersistentHistoryToken?), in: reopened) == "2 after: insert ")
    }
}
#endif
