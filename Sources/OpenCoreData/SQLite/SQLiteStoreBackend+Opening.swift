import Foundation
import GRDB

extension SQLiteStoreBackend {
    /// Runs `open` again while SQLite reports the file busy, until `timeout` has passed, and
    /// turns its errors into ``PersistentStoreError``s.
    ///
    /// The busy timeout covers most waits, but not all of opening: switching a new file to WAL
    /// (`PRAGMA journal_mode = WAL`) upgrades a read lock to a write lock, and SQLite fails that
    /// upgrade at once with `SQLITE_BUSY` when another connection holds a lock, to avoid a
    /// deadlock, without calling the busy handler. Processes started together on a new store
    /// meet it (about 1 open in 100 with four processes here), so the whole open is retried.
    static func retryingWhileBusy<Writer>(url: URL, timeout: TimeInterval, _ open: () throws -> Writer) throws -> Writer {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var pause: TimeInterval = 0.005
        while true {
            do {
                return try open()
            } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) && Date() < deadline {
                // Jittered, so that processes that collided once do not collide again.
                Thread.sleep(forTimeInterval: pause * Double.random(in: 0.5...1.5))
                pause = min(pause * 2, 0.1)
            } catch let error as PersistentStoreError {
                throw error
            } catch {
                throw storeError(error, url: url, doing: "opening the store")
            }
        }
    }
}
