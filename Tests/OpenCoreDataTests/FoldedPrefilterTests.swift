#if Postgres
import Foundation
@testable import OpenCoreData
import Testing

/// `[c]`/`[d]` comparisons on PostgreSQL, which cannot fold text as Foundation does: memory
/// decides them, but the store reads only the rows that may match (ASCII rows that match once
/// folded in SQL, and every row holding other characters), unless the comparison sits where a
/// superset of its rows would not give a superset of the conjunct's (under NOT, ALL, NONE).
@Suite struct FoldedPrefilterTests {
    static let names = ["Brazil", "BRAZIL", "brazilian", "Bräzil", "Chile", "Peru", "Ísland"]

    private func stack() throws -> TestStack {
        let stack = try TestStack(.postgres)
        let context = stack.newContext()
        try context.performAndWait {
            for name in Self.names {
                let team = Team(context: context)
                team.teamName = name
                team.qualifyingZone = name.hasPrefix("B") ? "CONMEBOL" : "OTHER"
            }
            try context.save()
        }
        return stack
    }

    /// The names a fetch finds, and the names of the rows the store read for it.
    private func fetch(_ format: String, in stack: TestStack) throws -> (found: [String], read: [String]) {
        let context = stack.newContext()
        return try context.performAndWait {
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: format)
            request.sortDescriptors = [FetchSortDescriptor(key: "teamName")]
            let found = try context.fetch(request).map(\.teamName)
            let coordinator = try #require(context.persistentStoreCoordinator)
            let rows = try coordinator.fetch(try context.storeFetch(for: request)).rows
            let read = try rows.map { row in (try context.existingObject(with: row.objectID) as? Team)?.teamName ?? "?" }
            return (found, read.sorted())
        }
    }

    @Test(arguments: [
        // format, what memory finds, what the store reads
        ("teamName ==[c] 'brazil'", ["BRAZIL", "Brazil"], ["BRAZIL", "Brazil", "Bräzil", "Ísland"]),
        ("teamName ==[cd] 'brazil'", ["BRAZIL", "Brazil", "Bräzil"], ["BRAZIL", "Brazil", "Bräzil", "Ísland"]),
        ("teamName BEGINSWITH[c] 'bra'", ["BRAZIL", "Brazil", "brazilian"], ["BRAZIL", "Brazil", "Bräzil", "brazilian", "Ísland"]),
        ("teamName CONTAINS[cd] 'SLAND'", ["Ísland"], ["Bräzil", "Ísland"]),
        ("teamName IN[c] {'peru', 'chile'}", ["Chile", "Peru"], ["Bräzil", "Chile", "Peru", "Ísland"]),
        ("qualifyingZone == 'CONMEBOL' AND teamName LIKE[c] '*IL'", ["BRAZIL", "Brazil", "Bräzil"], ["BRAZIL", "Brazil", "Bräzil"]),
        // No prefilter under NOT: every row is read.
        ("NOT teamName ==[c] 'brazil'", ["Bräzil", "Chile", "Peru", "brazilian", "Ísland"], names.sorted()),
    ])
    func theStoreReadsOnlyRowsThatMayMatch(format: String, found: [String], read: [String]) throws {
        let stack = try stack()
        let result = try fetch(format, in: stack)
        #expect(result.found == found.sorted())
        #expect(result.read == read.sorted())
    }
}
#endif
