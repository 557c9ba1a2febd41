import Foundation
import OpenCoreData
import Testing

/// `ocd history`: the store's transactions with their changes, as the app's history request
/// returns them; every token it prints is accepted by `--after` and selects exactly the later
/// transactions.
@Suite struct OcdHistoryTests {
    struct Transaction: Decodable, Equatable {
        struct Change: Decodable, Equatable {
            let type: String
            let object: String
            let updatedProperties: [String]?
            let tombstone: [String: JSONScalar]?
        }

        let token: String
        let number: Int64
        let author: String?
        let contextName: String?
        let processID: String
        let changes: [Change]
    }

    /// Saves by two authors, with an update and a deletion whose tombstone keeps the team's name.
    static func makeHistory(_ kind: StoreKind = .sqlite) throws -> HistoryStack {
        let model = try Fixtures.model()
        model.entitiesByName["Team"]?.attributesByName["teamName"]?.preservesValueInHistoryOnDeletion = true
        let stack = try HistoryStack(kind, model: model)
        try WorldCupData.seed(stack.newContext(author: "seed", name: "importer"))
        let editor = stack.newContext(author: "editor")
        try editor.performAndWait {
            let request = Team.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "teamName")]
            let teams = try editor.fetch(request)
            teams[0].wins += 1
            teams[1].imageName = "new.png"
            try editor.save()
            editor.delete(teams[2])
            try editor.save()
        }
        return stack
    }

    @Test(arguments: StoreKind.sqlStores)
    func jsonTransactionsAreTheAppsHistory(_ kind: StoreKind) async throws {
        let stack = try Self.makeHistory(kind)
        let printed = try OcdToolRunner.decode([Transaction].self, from: try await OcdToolRunner.run(["history", stack.storeArgument, "--json"]))
        let transactions = try stack.transactions()
        #expect(printed.map(\.token) == transactions.map(\.token.description))
        #expect(printed.map(\.number) == transactions.map(\.transactionNumber))
        #expect(printed.map(\.author) == ["seed", "editor", "editor"])
        #expect(printed.map(\.contextName) == ["importer", nil, nil])
        #expect(printed.allSatisfy { $0.processID == String(ProcessInfo.processInfo.processIdentifier) })
        for (printed, transaction) in zip(printed, transactions) {
            let changes = transaction.changes ?? []
            #expect(printed.changes.map(\.type) == changes.map { "\($0.changeType)" })
            #expect(printed.changes.map(\.object) == changes.map { $0.changedObjectID.uriRepresentation().absoluteString })
            #expect(printed.changes.map(\.updatedProperties) == changes.map { $0.updatedProperties.map { $0.map(\.name).sorted() } })
        }
        // France, third by name, deleted with its players (cascade).
        let deletion = try #require(printed.last?.changes.first { $0.type == "delete" && $0.object.contains("/Team/") })
        #expect(deletion.tombstone == ["teamName": .string("France")])
        #expect(Set(printed[1].changes.compactMap(\.updatedProperties)) == [["wins"], ["imageName"]])
    }

    /// Each token the text output prints, given back to `--after`, in full and as a bare number.
    @Test func everyPrintedTokenSelectsTheLaterTransactions() async throws {
        let stack = try Self.makeHistory()
        let text = try await OcdToolRunner.run(["history", stack.storeURL.path])
        #expect(text.status == 0, "\(text.stderr)")
        let headers = text.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        let tokens = headers.compactMap { $0.split(separator: " ").first.map(String.init) }
        let all = try stack.transactions()
        #expect(tokens == all.map(\.token.description))
        #expect(headers.first?.contains("author seed  context importer") == true)

        for (index, token) in tokens.enumerated() {
            let number = String(token.split(separator: ":").last ?? "")
            for given in [token, number] {
                let after = try OcdToolRunner.decode([Transaction].self, from: try await OcdToolRunner.run(
                    ["history", stack.storeURL.path, "--after", given, "--json"]))
                #expect(after.map(\.token) == Array(tokens[(index + 1)...]), "--after \(given)")
            }
        }
    }

    /// A store made before history recorded prior values, which `ocd` opens read-only: its
    /// history and info read as for any store.
    @Test func olderStoreHistoryReads() async throws {
        let (stack, written) = try PersistentHistoryOlderStoreTests.olderStore()
        let printed = try OcdToolRunner.decode([Transaction].self, from: try await OcdToolRunner.run(["history", stack.storeURL.path, "--json"]))
        #expect(printed.map(\.token) == written.map(\.token.description))
        #expect(printed.map(\.changes.count) == written.map { $0.changes?.count ?? 0 })
        let info = try await OcdToolRunner.run(["info", stack.storeURL.path])
        #expect(info.status == 0, "\(info.stderr)")
    }

    /// A token whose transactions were deleted: status 1, and the message gives the token to
    /// resume from.
    @Test func expiredTokenExits1WithTheCurrentToken() async throws {
        let stack = try Self.makeHistory()
        let all = try stack.transactions()
        let context = stack.newContext()
        _ = try context.performAndWait { try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: all[1].token)) }
        let result = try await OcdToolRunner.run(["history", stack.storeURL.path, "--after", all[0].token.description])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no longer holds") && result.stderr.contains(all[2].token.description), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
