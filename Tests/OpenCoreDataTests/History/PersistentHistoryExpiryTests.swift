import Foundation
import GRDB
@testable import OpenCoreData
import Testing

/// Deleting history, pruning it by the retention rule, turning tracking off, and the typed
/// expired-token condition each of them leads to.
@Suite struct PersistentHistoryExpiryTests {
    /// `count` saves of one team each; the token after each.
    private func saves(_ count: Int, in stack: HistoryStack) throws -> [PersistentHistoryToken] {
        try (0..<count).map { number in
            try stack.insertTeam("Team \(number)")
            return try stack.currentToken()
        }
    }

    private func backend(_ stack: HistoryStack) throws -> any PersistentHistoryBackend {
        try #require(stack.coordinator.persistentStores.first?.backend as? any PersistentHistoryBackend)
    }

    @Test(arguments: StoreKind.withPostgres)
    func deletingHistoryBeforeATokenATransactionOrADate(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let tokens = try saves(5, in: stack)
        let all = try stack.transactions()
        // Through the token: what a reader at tokens[0] has read.
        #expect(try stack.run(.deleteHistory(before: tokens[0])) as? Int == 1)
        #expect(try stack.transactions().map(\.token) == Array(tokens[1...]))
        // A reader at the purged position still follows: nothing after it is missing.
        #expect(try stack.transactions(after: tokens[0]).count == 4)
        // Before a transaction: it stays.
        let request = PersistentHistoryChangeRequest.deleteHistory(before: all[2])
        request.resultType = .statusOnly
        #expect(try stack.run(request) as? Bool == true)
        #expect(try stack.transactions().map(\.token) == Array(tokens[2...]))
        // Before a date: the transactions older than it.
        #expect(try stack.run(.deleteHistory(before: all[4].timestamp)) as? Int == 2)
        #expect(try stack.transactions().map(\.token) == [tokens[4]])
        // A nil token: everything.
        #expect(try stack.run(.deleteHistory(before: nil as PersistentHistoryToken?)) as? Int == 1)
        #expect(try stack.transactions().isEmpty)
        // Change IDs never repeat, even once every change was deleted.
        let lastChange = try #require(all.last?.changes?.last?.changeID)
        try stack.insertTeam("After")
        #expect(try #require(try stack.transactions().first?.changes?.first?.changeID) > lastChange)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aTokenBeforeDeletedHistoryHasExpired(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let tokens = try saves(4, in: stack)
        _ = try stack.run(.deleteHistory(before: tokens[1]))
        let error = historyError { _ = try stack.transactions(after: tokens[0]) }
        #expect(error?.code == PersistentHistoryError.expiredToken)
        #expect(error?.code.rawValue == 134301)
        #expect(error?.token == tokens[0])
        #expect(error?.currentToken == tokens[3])
        // `catch PersistentHistoryError.expiredToken` matches it.
        var matched = false
        do { _ = try stack.transactions(after: tokens[0]) } catch PersistentHistoryError.expiredToken { matched = true }
        #expect(matched)
        // The fallback: refetch, then follow from the error's current token.
        let current = try #require(error?.currentToken)
        try stack.insertTeam("Next")
        #expect(try stack.transactions(after: current).count == 1)
        // Later tokens stay valid.
        #expect(try stack.transactions(after: tokens[1]).count == 3)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aTokenOfAnotherStoreOrFromTheFutureHasExpired(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let other = try HistoryStack(kind)
        _ = try saves(2, in: stack)
        let foreign = try saves(1, in: other)[0]
        let error = historyError { _ = try stack.transactions(after: foreign) }
        #expect(error?.code == PersistentHistoryError.expiredToken)
        #expect(error?.message.contains("another store") == true)
        #expect(historyError { _ = try stack.run(.deleteHistory(before: foreign)) }?.code == PersistentHistoryError.expiredToken)
        #expect(historyError { try stack.coordinator.setPersistentHistoryReader("r", readUpTo: foreign) }?.code == PersistentHistoryError.expiredToken)
        let current = try stack.currentToken()
        let ahead = try #require(PersistentHistoryToken("\(current.storeIdentifier):\(current.transactionNumber + 5)"))
        #expect(historyError { _ = try stack.transactions(after: ahead) }?.code == PersistentHistoryError.expiredToken)
    }

    /// A coordinator with tracking off writes without recording; tokens from before its commits
    /// expire, later ones work, and the history recorded before stays readable.
    @Test func commitsWithTrackingOffExpireEarlierTokens() throws {
        let stack = try HistoryStack(.sqlite)
        let tokens = try saves(2, in: stack)
        let off = try stack.reopened(tracking: false)
        #expect(try off.coordinator.currentPersistentHistoryToken(fromStores: nil) == nil)
        #expect(historyError { _ = try off.transactions() }?.code == PersistentHistoryError.historyUnavailable)
        try off.insertTeam("Unrecorded")
        // The first coordinator still records; the gap is seen from every token before it.
        #expect(historyError { _ = try stack.transactions(after: tokens[0]) }?.code == PersistentHistoryError.expiredToken)
        #expect(historyError { _ = try stack.transactions(after: tokens[1]) }?.code == PersistentHistoryError.expiredToken)
        let afterGap = try stack.currentToken()
        try stack.insertTeam("Recorded")
        #expect(try stack.transactions(after: afterGap).count == 1)
        #expect(try stack.transactions().count == 3)
        // Turned on again, the store records from its next commit.
        let on = try stack.reopened(tracking: true)
        let resumed = try on.currentToken()
        try on.insertTeam("Again")
        #expect(try on.transactions(after: resumed).count == 1)
    }

    @Test(arguments: StoreKind.withPostgres)
    func retentionPrunesHistoryOlderThanTheWindowAndEveryLiveReader(kind: StoreKind) throws {
        let stack = try HistoryStack(kind) { description in
            description.persistentHistoryRetention = PersistentHistoryRetention(window: 100, readerTimeout: 50, checkInterval: 3600)
        }
        let tokens = try saves(3, in: stack)
        let backend = try backend(stack)
        let now = Date()
        // Within the window: kept.
        #expect(try backend.pruneHistory(now: now.addingTimeInterval(60)) == 0)
        // A live reader at tokens[0] keeps what it has not read.
        try backend.setHistoryReader("widget", readUpTo: tokens[0], now: now.addingTimeInterval(190))
        #expect(try backend.pruneHistory(now: now.addingTimeInterval(200)) == 1)
        #expect(try stack.transactions().map(\.token) == Array(tokens[1...]))
        #expect(try stack.transactions(after: tokens[0]).count == 2)
        // A reader not seen within the timeout holds nothing.
        #expect(try backend.pruneHistory(now: now.addingTimeInterval(300)) == 2)
        #expect(try stack.transactions().isEmpty)
        #expect(historyError { _ = try stack.transactions(after: tokens[0]) }?.code == PersistentHistoryError.expiredToken)
        // A removed reader holds nothing either.
        let more = try saves(2, in: stack)
        try backend.setHistoryReader("app", readUpTo: more[0], now: now.addingTimeInterval(390))
        try stack.coordinator.removePersistentHistoryReader("app")
        #expect(try backend.pruneHistory(now: now.addingTimeInterval(400)) == 2)
    }

    @Test(arguments: StoreKind.withPostgres)
    func savesPruneAsTheyCommit(kind: StoreKind) throws {
        let stack = try HistoryStack(kind) { description in
            description.persistentHistoryRetention = PersistentHistoryRetention(window: 0, readerTimeout: 3600, checkInterval: 0)
        }
        let tokens = try saves(3, in: stack)
        // Each save pruned what came before it, never itself.
        #expect(try stack.transactions().map(\.token) == [tokens[2]])
        // A live reader holds what it has not read.
        try stack.coordinator.setPersistentHistoryReader("reader", readUpTo: tokens[2])
        let later = try saves(2, in: stack)
        #expect(try stack.transactions(after: tokens[2]).map(\.token) == later)
    }

    @Test func reopeningPrunesByTheRetentionRule() throws {
        let stack = try HistoryStack(.sqlite)
        _ = try saves(3, in: stack)
        let reopened = try stack.reopened { description in
            description.persistentHistoryRetention = PersistentHistoryRetention(window: 0)
        }
        #expect(try reopened.transactions().isEmpty)
        #expect(try stack.transactions().isEmpty)
    }

    /// A store made before persistent history existed opens, gains the history tables, and
    /// records from its next save.
    @Test func aStoreMadeBeforeHistoryGainsIt() throws {
        let stack = try HistoryStack(.sqlite)
        try stack.insertTeam("Old")
        let url = stack.storeURL
        let directory = stack.directory
        for store in stack.coordinator.persistentStores { try stack.coordinator.remove(store) }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            for table in ["_ocd_history_transaction", "_ocd_history_change", "_ocd_history_tombstone", "_ocd_history_reader"] {
                try db.execute(sql: "DROP TABLE \(table)")
            }
        }
        try queue.close()
        let reopened = try HistoryStack(.sqlite, directory: directory)
        let token = try reopened.currentToken()
        #expect(try reopened.transactions().isEmpty)
        try reopened.save { context in try context.all(Team.self).first?.wins = 1 }
        let transactions = try reopened.transactions(after: token)
        #expect(transactions.map(\.summary) == [["update Team"]])
    }

    @Test func aReadOnlyStoreReadsHistoryButDoesNotDeleteIt() throws {
        let stack = try HistoryStack(.sqlite)
        let tokens = try saves(2, in: stack)
        let reader = try stack.reopened { $0.isReadOnly = true }
        #expect(try reader.transactions(after: tokens[0]).map(\.token) == [tokens[1]])
        let error = #expect(throws: PersistentStoreError.self) { _ = try reader.run(.deleteHistory(before: tokens[0])) }
        #expect(error?.code == PersistentStoreError.readOnly)
    }

    @Test func aSaveOfManyNewObjectsIsOneChangeRow() throws {
        let stack = try HistoryStack(.sqlite)
        let context = stack.newContext()
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            let teams = (0..<1_000).map { number -> Team in
                let team = Team(context: context)
                team.teamName = "Team \(number)"
                team.qualifyingZone = "UEFA"
                return team
            }
            try context.save()
            return teams.map(\.objectID)
        }
        for store in stack.coordinator.persistentStores { try stack.coordinator.remove(store) }
        #expect(try SQLiteShell.run("SELECT count(*), sum(\"count\") FROM _ocd_history_change", on: stack.storeURL) == "1|1000")
        let reopened = try HistoryStack(.sqlite, directory: stack.directory)
        let changes = try #require(try reopened.transactions().first?.changes)
        // The reopened store has a model of its own: compare the IDs' URIs.
        #expect(changes.map { $0.changedObjectID.uriRepresentation() } == ids.map { $0.uriRepresentation() })
    }

    @Test func tokensAreCodableComparableAndReadableAsText() throws {
        let stack = try HistoryStack(.sqlite)
        let tokens = try saves(3, in: stack)
        #expect(tokens == tokens.sorted())
        #expect(tokens.reversed().sorted() == tokens)
        let data = try JSONEncoder().encode(tokens)
        #expect(try JSONDecoder().decode([PersistentHistoryToken].self, from: data) == tokens)
        for token in tokens { #expect(PersistentHistoryToken(token.description) == token) }
        for text in ["", "abc", ":5", "store:-1", "store:x", "store:"] {
            #expect(PersistentHistoryToken(text) == nil, "\(text)")
        }
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(PersistentHistoryToken.self, from: Data("\"nope\"".utf8)) }
        // A token read back works as the original.
        let decoded = try JSONDecoder().decode(PersistentHistoryToken.self, from: try JSONEncoder().encode(tokens[0]))
        #expect(try stack.transactions(after: decoded).map(\.token) == Array(tokens[1...]))
    }
}

extension PersistentHistoryExpiryTests {
    /// Transaction numbers are store generations: a generation that went back (its metadata row
    /// deleted) drops the history ahead of it when the store loads, so that saves go on, and
    /// tokens from before are expired.
    @Test func historyAheadOfTheGenerationIsDroppedOnLoad() throws {
        let stack = try HistoryStack(.sqlite)
        let tokens = try saves(2, in: stack)
        for store in stack.coordinator.persistentStores { try stack.coordinator.remove(store) }
        try SQLiteShell.run("DELETE FROM _ocd_metadata WHERE key = 'generation'", on: stack.storeURL)
        let reopened = try HistoryStack(.sqlite, directory: stack.directory)
        #expect(try reopened.transactions().isEmpty)
        #expect(historyError { _ = try reopened.transactions(after: tokens[1]) }?.code == PersistentHistoryError.expiredToken)
        try reopened.insertTeam("Goes on")
        #expect(try reopened.transactions().map(\.transactionNumber) == [1])
    }
}
