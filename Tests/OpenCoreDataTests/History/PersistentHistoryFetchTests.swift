import Foundation
import OpenCoreData
import Testing

/// Fetching history: after a token, a transaction or a date; filtered by a fetch request on
/// transactions or changes; in every result type.
@Suite struct PersistentHistoryFetchTests {
    /// Three saves by three authors: an app's insert, an importer's insert of a team and a
    /// player, and an anonymous update. Returns the token after each.
    private func threeSaves(_ stack: HistoryStack) throws -> [PersistentHistoryToken] {
        let brazil = try stack.insertTeam("Brazil", author: "app")
        let first = try stack.currentToken()
        try stack.save(author: "importer", name: "import") { context in
            let team = Team(context: context)
            team.teamName = "Chile"
            team.qualifyingZone = "CONMEBOL"
            let player = Player(context: context)
            player.name = "Alexis"
            player.team = team
        }
        let second = try stack.currentToken()
        try stack.save { context in (try context.existingObject(with: brazil) as? Team)?.wins = 4 }
        return [first, second, try stack.currentToken()]
    }

    @Test(arguments: StoreKind.withPostgres)
    func fetchesAfterATokenATransactionOrADate(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let beforeAny = try stack.currentToken()
        let tokens = try threeSaves(stack)
        let all = try stack.transactions()
        #expect(all.map(\.token) == tokens)
        #expect(try stack.transactions(after: beforeAny).map(\.token) == tokens)
        #expect(try stack.transactions(after: tokens[0]).map(\.token) == Array(tokens[1...]))
        #expect(try stack.transactions(after: tokens[2]).isEmpty)
        let afterTransaction = try #require(try stack.run(.fetchHistory(after: all[1])) as? [PersistentHistoryTransaction])
        #expect(afterTransaction.map(\.token) == [tokens[2]])
        let afterDate = try #require(try stack.run(.fetchHistory(after: all[0].timestamp)) as? [PersistentHistoryTransaction])
        #expect(afterDate.map(\.token) == all.filter { $0.timestamp > all[0].timestamp }.map(\.token))
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: tokens[1]).token == tokens[1])
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: Date()).token == nil)
    }

    @Test(arguments: StoreKind.withPostgres)
    func transactionsFilterByTheirProperties(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let tokens = try threeSaves(stack)
        func authors(_ format: String, _ arguments: Any?...) throws -> [String?] {
            let filter = try #require(PersistentHistoryTransaction.fetchRequest)
            filter.predicate = try FetchPredicate(format: format, argumentArray: arguments)
            return try stack.transactions(filter: filter).map(\.author)
        }
        #expect(try authors("author == %@", "importer") == ["importer"])
        #expect(try authors("author == nil") == [nil])
        #expect(try authors("contextName BEGINSWITH 'imp'") == ["importer"])
        let first = try #require(try stack.transactions().first)
        #expect(try authors("transactionNumber > %@", NSNumber(value: first.transactionNumber)) == ["importer", nil])
        #expect(try authors("timestamp <= %@", first.timestamp) == ["app"])
        #expect(try authors("ANY changes.changedEntity == 'Player'") == ["importer"])
        // Each transaction comes with all its changes.
        let filter = try #require(PersistentHistoryTransaction.fetchRequest)
        filter.predicate = try FetchPredicate(format: "author == %@", "importer")
        #expect(try stack.transactions(filter: filter).first?.summary.sorted() == ["insert Player", "insert Team"])
        // Windows, in commit order.
        let window = try #require(PersistentHistoryTransaction.fetchRequest)
        window.fetchOffset = 1
        window.fetchLimit = 1
        #expect(try stack.transactions(filter: window).map(\.token) == [tokens[1]])
        // fetchHistory(withFetch:) selects among every transaction.
        let byDate = try #require(PersistentHistoryTransaction.fetchRequest)
        byDate.predicate = try FetchPredicate(format: "author != nil")
        let selected = try #require(try stack.run(.fetchHistory(withFetch: byDate)) as? [PersistentHistoryTransaction])
        #expect(selected.map(\.author) == ["app", "importer"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func changesFilterByEntityTypeAndTransaction(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let tokens = try threeSaves(stack)
        func summaries(_ format: String, _ arguments: Any?..., offset: Int = 0, limit: Int = 0) throws -> [[String]] {
            let filter = try #require(PersistentHistoryChange.fetchRequest)
            filter.predicate = try FetchPredicate(format: format, argumentArray: arguments)
            filter.fetchOffset = offset
            filter.fetchLimit = limit
            return try stack.transactions(filter: filter).map { $0.summary.sorted() }
        }
        #expect(try summaries("changedEntity == %@", "Player") == [["insert Player"]])
        #expect(try summaries("changedEntity == %@", "Team") == [["insert Team"], ["insert Team"], ["update Team"]])
        #expect(try summaries("changeType == %d", PersistentHistoryChangeType.update.rawValue) == [["update Team"]])
        #expect(try summaries("transaction.author == %@", "app") == [["insert Team"]])
        #expect(try summaries("changedEntity == 'Team' AND transaction.author == nil") == [["update Team"]])
        // The window counts changes, in commit order.
        #expect(try summaries("TRUEPREDICATE", offset: 1, limit: 2).flatMap { $0 }.count == 2)
        #expect(try summaries("TRUEPREDICATE", offset: 3).flatMap { $0 } == ["update Team"])
        #expect(try summaries("TRUEPREDICATE", offset: 4).isEmpty)
        let filter = try #require(PersistentHistoryChange.fetchRequest)
        filter.predicate = try FetchPredicate(format: "changedEntity == 'Player'")
        let request = PersistentHistoryChangeRequest.fetchHistory(after: tokens[0])
        request.fetchRequest = filter
        request.resultType = .count
        #expect(try stack.run(request) as? Int == 1)
    }

    @Test(arguments: StoreKind.withPostgres)
    func everyResultType(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        _ = try threeSaves(stack)
        let all = try stack.transactions()
        func run(_ type: PersistentHistoryResultType, filter: (any UntypedFetchRequest)? = nil) throws -> Any? {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.resultType = type
            request.fetchRequest = filter
            return try stack.run(request)
        }
        #expect(try run(.statusOnly) as? Bool == true)
        #expect(try run(.count) as? Int == 3)
        let ids = try #require(try run(.objectIDs) as? [ManagedObjectID])
        // Brazil, Chile, Alexis: Brazil's update names no new object.
        #expect(ids.count == 3)
        #expect(ids == all.flatMap { $0.changes ?? [] }.map(\.changedObjectID).reduce(into: []) { seen, id in
            if !seen.contains(id) { seen.append(id) }
        })
        let bare = try #require(try run(.transactionsOnly) as? [PersistentHistoryTransaction])
        #expect(bare.map(\.token) == all.map(\.token))
        #expect(bare.allSatisfy { $0.changes == nil })
        let changes = try #require(try run(.changesOnly) as? [PersistentHistoryChange])
        #expect(changes.map(\.changeID) == all.flatMap { $0.changes ?? [] }.map(\.changeID))
        // Changes fetched alone hold their transaction, without its changes.
        var owners: [PersistentHistoryToken?] = []
        for transaction in all {
            owners += Array(repeating: transaction.token, count: transaction.changes?.count ?? 0)
        }
        #expect(changes.map { $0.transaction?.token } == owners)
        #expect(changes.allSatisfy { $0.transaction?.changes == nil })
        let full = try #require(try run(.transactionsAndChanges) as? [PersistentHistoryTransaction])
        #expect(full.map { $0.changes?.count } == all.map { $0.changes?.count })
        let players = try #require(PersistentHistoryChange.fetchRequest)
        players.predicate = try FetchPredicate(format: "changedEntity == 'Player'")
        #expect(try run(.count, filter: players) as? Int == 1)
        #expect((try run(.changesOnly, filter: players) as? [PersistentHistoryChange])?.count == 1)
    }

    @Test(arguments: StoreKind.withPostgres)
    func requestsThatCannotRunSayWhy(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        try stack.insertTeam("Brazil")
        let wrongEntity = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        wrongEntity.fetchRequest = Team.fetchRequest()
        let error = historyError { _ = try stack.run(wrongEntity) }
        #expect(error?.code == PersistentHistoryError.invalidRequest)
        #expect(error?.message.contains("Team") == true)
        let unknownKey = try #require(PersistentHistoryTransaction.fetchRequest)
        unknownKey.predicate = try FetchPredicate(format: "teamName == 'Brazil'")
        #expect(throws: FetchRequestError.self) { _ = try stack.transactions(filter: unknownKey) }
        let otherStack = try HistoryStack(kind)
        let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        request.affectedStores = otherStack.coordinator.persistentStores
        #expect(historyError { _ = try stack.run(request) }?.code == PersistentHistoryError.invalidRequest)
    }
}
