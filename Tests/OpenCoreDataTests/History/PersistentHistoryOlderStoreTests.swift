import Foundation
import GRDB
import OpenCoreData
import Testing

/// A store made before history recorded prior values has no `_ocd_history_prior_value` table
/// until a writable coordinator loads it. Read-only (an `ocd` process, a read-only mount), its
/// history reads as before, every change without prior values; it was refused with "no such
/// table", which also turned every remote commit into a refetch for the change feed.
@Suite struct PersistentHistoryOlderStoreTests {
    /// A store with a history of three transactions, then stripped of the prior values table.
    static func olderStore() throws -> (stack: HistoryStack, transactions: [PersistentHistoryTransaction]) {
        let stack = try HistoryStack()
        try WorldCupData.seed(stack.newContext(author: "seed"))
        let context = stack.newContext(author: "editor")
        try context.performAndWait {
            let teams = try context.all(Team.self, sortedBy: "teamName")
            teams[0].wins += 1
            try context.save()
            context.delete(teams[1])
            try context.save()
        }
        let transactions = try stack.transactions()
        try stack.container.persistentStoreCoordinator.persistentStores.forEach { store in
            try stack.container.persistentStoreCoordinator.remove(store)
        }
        let queue = try DatabaseQueue(path: stack.storeURL.path)
        try queue.write { db in try db.execute(sql: "DROP TABLE _ocd_history_prior_value") }
        try queue.close()
        return (stack, transactions)
    }

    @Test func readOnlyHistoryOfAnOlderStoreHasEveryChange() throws {
        let (stack, written) = try Self.olderStore()
        let reader = try HistoryStack(directory: stack.directory) { $0.isReadOnly = true }
        let read = try reader.transactions()
        #expect(read.map(\.token) == written.map(\.token))
        // Compared by URI: the two coordinators have models of their own.
        let uris = { (transactions: [PersistentHistoryTransaction]) in
            transactions.map { $0.changes?.map { $0.changedObjectID.uriRepresentation() } }
        }
        #expect(uris(read) == uris(written))
        #expect(read.map { $0.changes?.map(\.changeType) } == written.map { $0.changes?.map(\.changeType) })
        let after = try reader.transactions(after: written[0].token)
        #expect(after.map(\.token) == Array(written.dropFirst()).map(\.token))
    }
}
