#if Postgres
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// A save's connection dropped at its `COMMIT` (another session terminates it): the store asks
/// PostgreSQL whether the transaction committed. Committed (the drop came after the commit, and
/// only its answer was lost): the save succeeds. Rolled back: the save fails saying nothing was
/// saved. Either way rows, history and generation agree, and the store saves on afterwards.
@Suite struct PostgresCommitTests {
    enum Drop: String, CaseIterable, Sendable {
        /// The transaction commits, then the session ends before the library reads the answer.
        case afterCommit
        /// The session ends with the transaction open: PostgreSQL rolls it back.
        case beforeCommit
    }

    static func insertNode(_ label: String, in container: PersistentContainer) -> (any Error)? {
        let context = container.newBackgroundContext()
        context.transactionAuthor = "writer"
        return context.performAndWait {
            do {
                try EntityDescription.insertNewObject(forEntityName: "Node", into: context).setValue(label, forKey: "label")
            } catch {
                return error
            }
            return context.saveCatching()
        }
    }

    @Test(arguments: Drop.allCases)
    func connectionDroppedAtCommit(drop: Drop) throws {
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let container = try store.container()
        let backend = try #require(container.persistentStoreCoordinator.persistentStores.first?.backend as? PostgresStoreBackend)
        let admin = schema.admin
        backend.commitHook = { connection in
            let pid = try #require(try connection.query("SELECT pg_backend_pid()").first?.decode(Int32.self))
            if drop == .afterCommit { try connection.execute("COMMIT") }
            _ = try admin.query("SELECT pg_terminate_backend(\(pid), 5000)")
            let deadline = Date().addingTimeInterval(5)
            while !connection.isConnectionClosed, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        let error = Self.insertNode("dropped", in: container)
        backend.commitHook = nil
        let rows = try schema.rows("SELECT count(*)::text FROM \(schema.qualified("Node"))")
        let history = try backend.fetchHistory(from: .beginning, includingChanges: true)
        switch drop {
        case .afterCommit:
            #expect(error == nil, "\(String(describing: error))")
            #expect(rows == ["1"])
            #expect(try backend.generation() == 1)
            #expect(history.map(\.number) == [1] && history.first?.author == "writer" && history.first?.changes.count == 1)
        case .beforeCommit:
            let storeError = try #require(error as? PersistentStoreError)
            #expect(storeError.code == PersistentStoreError.connectionLost)
            #expect(storeError.message.contains("nothing was saved"), "\(storeError.message)")
            #expect(rows == ["0"])
            #expect(try backend.generation() == 0)
            #expect(history.isEmpty)
        }
        // The next save runs on a new connection and takes the next number.
        #expect(Self.insertNode("next", in: container) == nil)
        let expected: Int64 = drop == .afterCommit ? 2 : 1
        #expect(try backend.generation() == expected)
        #expect(try backend.fetchHistory(from: .beginning, includingChanges: false).last?.number == expected)
    }
}
#endif
