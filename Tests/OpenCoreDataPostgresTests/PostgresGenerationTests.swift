#if Postgres
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// The store generation on PostgreSQL: each committing save notifies the store's channel once;
/// programs that write the tables without the library advance the generation through the
/// triggers (and leave a gap in history); a library save advances it by exactly one.
@Suite struct PostgresGenerationTests {
    /// The payloads a connection LISTENing on a channel has received.
    final class Notifications: @unchecked Sendable {
        private let lock = NSLock()
        private var payloads: [String] = []
        let pool: PostgresConnectionPool

        init(channel: String) throws {
            pool = try TestServer.pool("pool=1")
            try pool.withConnection { connection in
                connection.connection.addListener(channel: channel) { [weak self] _, notification in
                    guard let self else { return }
                    lock.withLock { payloads.append(notification.payload) }
                }
                // The listener's LISTEN goes before this query on the connection.
                _ = try connection.query("SELECT 1")
            }
        }

        /// The payloads received once `count` have arrived (or 5 s passed), after a further
        /// moment in which any extra one would arrive too.
        func received(waitingFor count: Int) throws -> [String] {
            let deadline = Date().addingTimeInterval(5)
            while lock.withLock({ payloads.count }) < count, Date() < deadline {
                // A query lets the listening session take its pending notifications.
                _ = try pool.query("SELECT 1")
                Thread.sleep(forTimeInterval: 0.02)
            }
            Thread.sleep(forTimeInterval: 0.2)
            _ = try pool.query("SELECT 1")
            return lock.withLock { payloads }
        }

        func close() { pool.close() }
    }

    static func generation(_ schema: TestStoreSchema) throws -> Int64 {
        Int64(try #require(try schema.rows("SELECT \"value\"::text FROM \(schema.qualified("_ocd_generation"))").first)) ?? -1
    }

    static func identifier(_ container: PersistentContainer) throws -> String {
        try #require(container.persistentStoreCoordinator.persistentStores.first?.identifier)
    }

    @Test func eachCommitNotifiesOnce() throws {
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let first = try store.container(), second = try store.container()
        let channel = "ocd_" + (try Self.identifier(first)).replacingOccurrences(of: "-", with: "").lowercased()
        let notifications = try Notifications(channel: channel)
        defer { notifications.close() }

        // Three commits: an insert, an update, a deletion.
        let context = first.newBackgroundContext()
        let id = try context.performAndWait {
            let node = try EntityDescription.insertNewObject(forEntityName: "Node", into: context)
            node.setValue("n", forKey: "label")
            try context.save()
            node.setValue("changed", forKey: "text")
            try context.save()
            return node.objectID
        }
        // Saves that commit nothing: a version conflict, a value PostgreSQL cannot store, no
        // change at all.
        let stale = second.newBackgroundContext()
        try stale.performAndWait {
            let node = try stale.existingObject(with: id)
            _ = node.value(forKey: "text")
            try context.performAndWait {
                try context.existingObject(with: id).setValue("again", forKey: "text")
                try context.save()
            }
            node.setValue("stale", forKey: "text")
            #expect(stale.saveCatching() != nil)
            stale.rollback()
            try EntityDescription.insertNewObject(forEntityName: "Node", into: stale).setValue("a\u{0}b", forKey: "label")
            #expect(stale.saveCatching() != nil)
            stale.rollback()
            try stale.save()
        }
        // A plain transaction that writes a table and rolls back.
        try schema.executeAndRollBack(["""
            INSERT INTO \(schema.qualified("Node")) ("_pk", "_entity", "_version", "label")
            VALUES (1000, \(try schema.entityCode("Node")), 1, 'x')
            """])
        try context.performAndWait {
            context.delete(try context.existingObject(with: id))
            try context.save()
        }
        #expect(try notifications.received(waitingFor: 4) == ["1", "2", "3", "4"])
        #expect(try Self.generation(schema) == 4)
    }

    @Test func writersThatBypassTheLibraryAdvanceTheGeneration() throws {
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let container = try store.container()
        let backend = try #require(container.persistentStoreCoordinator.persistentStores.first?.backend as? any PersistentHistoryBackend)
        let notifications = try Notifications(
            channel: "ocd_" + (try Self.identifier(container)).replacingOccurrences(of: "-", with: "").lowercased())
        defer { notifications.close() }
        let node = schema.qualified("Node"), links = schema.qualified("_Node_links")
        let code = try schema.entityCode("Node")
        let before = try backend.currentHistoryToken()
        #expect(before.description.hasSuffix(":0"))
        // One advance per statement, whatever its row count; none for a rolled-back transaction.
        let statements = [
            "INSERT INTO \(node) (\"_pk\", \"_entity\", \"_version\", \"label\") VALUES (1000, \(code), 1, 'x'), (1001, \(code), 1, 'y')",
            "UPDATE \(node) SET \"text\" = 'plain' WHERE \"_pk\" IN (1000, 1001)",
            "INSERT INTO \(links) VALUES (1000, \(code), 1001, \(code))",
            "DELETE FROM \(links)",
            "DELETE FROM \(node) WHERE \"_pk\" = 1001",
            "TRUNCATE \(node)",
        ]
        for (index, statement) in statements.enumerated() {
            try schema.execute(statement)
            #expect(try Self.generation(schema) == Int64(index + 1), "\(statement)")
        }
        try schema.executeAndRollBack([
            "INSERT INTO \(node) (\"_pk\", \"_entity\", \"_version\", \"label\") VALUES (2000, \(code), 1, 'z')",
            "DELETE FROM \(links)",
        ])
        #expect(try Self.generation(schema) == 6)
        #expect(try notifications.received(waitingFor: 6) == ["1", "2", "3", "4", "5", "6"])

        // A library save writing three tables in several statements advances it by one.
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let parent = try EntityDescription.insertNewObject(forEntityName: "Node", into: context)
            parent.setValue("p", forKey: "label")
            let child = try EntityDescription.insertNewObject(forEntityName: "Node", into: context)
            child.setValue("c", forKey: "label")
            child.setValue(parent, forKey: "parent")
            child.mutableSetValue(forKey: "links").add(parent)
            let keyed = try EntityDescription.insertNewObject(forEntityName: "Keyed", into: context)
            keyed.setValue("k", forKey: "label")
            keyed.setValue(Int32(1), forKey: "code")
            try context.save()
        }
        #expect(try Self.generation(schema) == 7)
        // The plain writes left a gap in history: a reader from before them must refetch; the
        // save after them is recorded as transaction 7.
        #expect(throws: PersistentHistoryError.self) { try backend.fetchHistory(from: .after(before), includingChanges: false) }
        let after = try backend.fetchHistory(from: .after(PersistentHistoryToken("\(before.description.split(separator: ":")[0]):6")!),
                                             includingChanges: true)
        #expect(after.map(\.number) == [7])
        #expect(after.first?.changes.count == 3)
    }
}
#endif
