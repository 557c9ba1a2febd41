import Foundation
import OpenCoreData
import Testing

extension HistoryStack {
    /// Runs a batch request on a new context with this author and returns the result.
    func execute(_ request: PersistentStoreRequest, author: String? = nil) throws -> PersistentStoreResult {
        let context = newContext(author: author, name: "batch")
        return try context.performAndWait { try context.execute(request) }
    }

    /// Every team's name and wins, by name, as a fresh context reads them from the store (the
    /// last of teams sharing a name, so that a test of a broken request fails rather than traps).
    func storedTeams() throws -> [String: (wins: Int16, imageName: String?)] {
        let context = newContext()
        return try context.performAndWait {
            let teams = try context.fetch(FetchRequest<Team>(entityName: "Team"))
            return Dictionary(teams.map { ($0.teamName, ($0.wins, $0.imageName)) }, uniquingKeysWith: { _, last in last })
        }
    }
}

/// Runs `body` and returns the batch request error it throws, failing if it throws none.
func batchError(_ body: () throws -> Void) -> BatchRequestError? {
    do {
        try body()
        Issue.record("expected a BatchRequestError")
        return nil
    } catch let error as BatchRequestError {
        return error
    } catch {
        Issue.record("expected a BatchRequestError, got \(error)")
        return nil
    }
}
