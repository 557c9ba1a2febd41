import GRDB

/// An SQLite store's reads pinned for a query generation: a connection of its own holding a read
/// transaction, which sees the database as it was when the transaction began (WAL mode).
final class SQLitePinnedReads: StoreReadPin {
    let snapshot: DatabaseSnapshot

    init(_ snapshot: DatabaseSnapshot) {
        self.snapshot = snapshot
    }
}

extension SQLiteStoreBackend {
    /// A read-only store (opened without a pool) reads its latest state: nothing of this process
    /// changes it.
    func pinReads() throws -> (any StoreReadPin)? {
        guard let pool = writer as? DatabasePool else { return nil }
        do {
            return SQLitePinnedReads(try pool.makeSnapshot())
        } catch {
            throw Self.storeError(error, url: url, doing: "pinning a query generation")
        }
    }
}
