public import ExampleSupport
import Foundation
import OpenCoreData

extension Scoreboard {
    /// Empties the store at `location`, so that the next ``open(_:seeds:logger:)`` seeds it
    /// again: an SQLite store's files are deleted (a store of an older model included), a
    /// PostgreSQL store's teams are deleted in one batch request, whose commit reaches any server
    /// still running on it.
    ///
    /// Stop the other servers on the store first: one that saves meanwhile keeps its team.
    ///
    /// - Parameter location: The store.
    /// - Throws: `ToolError` naming a PostgreSQL store that cannot be opened, or what the batch
    ///   delete throws.
    public static func reset(_ location: StoreLocation) throws {
        switch location {
        case .file(let url):
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        case .inMemory:
            return
        case .postgres:
            let container = try WorldCupStore.open(location)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                _ = try context.execute(BatchDeleteRequest(fetchRequest: Team.fetchRequest()))
            }
        }
    }
}
