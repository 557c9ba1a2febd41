#if Postgres
import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// The faults of Docs/PostgresStore.md ("Faults and how each is tested") that the listener and the
/// pool must survive: PostgreSQL restarted while a process of the library and another one commit
/// to it, and a process cut off from the server for a while. Nothing committed is lost, a save
/// made while the server is unreachable fails with an error that says so and writes nothing, the
/// connections and the commit listener come back by themselves, and every batch the controllers
/// deliver is still valid for a list. A restarted server is one of the test's own
/// (`Scripts/postgres-server` on a directory of its own), since the suites share the other.
@Suite struct PostgresFaultTests {
    typealias LiveTeams = ChangeFeedTests.LiveTeams

    @Test func controllersStayRightWhileTheServerRestartsBetweenCommitsOfTwoProcesses() throws {
        let server = try OwnPostgresServer()
        defer { server.stop() }
        let configuration = try #require(FuzzConfiguration.all.first { $0.store == .postgres })
        let writer = try #require(CrashHarness.executableURL(named: "CrossProcessTestWriter"),
                                  "CrossProcessTestWriter was not found; build it with `swift build --build-tests`")
        let run = try FetchedResultsFuzzRun(configuration: configuration, seed: 0x5245_5354, otherProcess: [writer.path],
                                            postgresServer: server.url)
        var restarts = 0
        var restartFailure: (any Error)?
        let report = try run.run(batches: 80) { number in
            guard number % 16 == 0, restartFailure == nil else { return }
            do {
                try server.restart()
                restarts += 1
            } catch {
                restartFailure = error
            }
        }
        if let restartFailure { Issue.record("restarting the server: \(restartFailure)") }
        if let mismatch = report.mismatch { Issue.record("\(mismatch)") }
        print("fuzzer across \(restarts) server restarts: \(report.summary)")
        #expect(report.batches == 80 && restarts == 5)
        #expect(report.otherProcessBatches > 10)
    }

    @Test func aSaveWhileTheServerIsDownFailsSayingSoAndWritesNothing() throws {
        let server = try OwnPostgresServer()
        defer { server.stop() }
        let stack = try HistoryStack(.postgres, postgresSchema: PostgresTestSchema(server: server.url))
        let kept = try stack.insertTeam("Kept", wins: 3)
        let generation = try stack.coordinator.storeGeneration()
        try server.stopServer()
        let context = stack.newContext()
        let failure = context.performAndWait { () -> (any Error)? in
            let team = Team(context: context)
            team.teamName = "Lost"
            team.qualifyingZone = "CAF"
            do {
                try context.save()
                return nil
            } catch {
                return error
            }
        }
        let error = try #require(failure as? PersistentStoreError, "the save did not fail: \(String(describing: failure))")
        #expect([PersistentStoreError.cannotOpen, PersistentStoreError.connectionLost].contains(error.code), "\(error)")
        #expect("\(error)".contains("PostgreSQL"), "\(error)")
        try server.start()
        // The same context saves once the server is back, on new connections.
        try context.performAndWait { try context.save() }
        let names = try context.performAndWait {
            try context.fetch(Team.fetchRequest()).map(\.teamName).sorted()
        }
        #expect(names == ["Kept", "Lost"])
        #expect(try stack.coordinator.storeGeneration() == generation + 1)
        #expect(try stack.sameObject(kept) == kept)
    }

    @Test func aProcessCutOffFromTheServerCatchesUpWhenItReturns() throws {
        let schema = try PostgresTestSchema()
        let serverURL = try #require(ProcessInfo.processInfo.environment[PostgresTestSchema.serverVariable])
        let server = try #require(URLComponents(string: serverURL))
        let proxy = try TCPProxy(to: try #require(server.port))
        defer { proxy.stop() }
        var throughProxy = server
        throughProxy.port = proxy.port
        // The reader loads first: its store is the one the process's feed reads and listens with.
        let reader = try HistoryStack(.postgres, postgresSchema: schema) { description in
            description.url = URL(string: schema.storeURL.replacingOccurrences(of: server.string ?? "", with: throughProxy.string ?? ""))
        }
        try #require(reader.coordinator.persistentStores.first?.url?.absoluteString.contains(":\(proxy.port)/") == true)
        let writer = try reader.reopened()
        for index in 0..<10 { try writer.insertTeam("Team \(index)", wins: Int16(index)) }
        let merging = try LiveTeams(reader, merging: true)
        // A context that follows history by hand, from a token it saved, as a process that was
        // down would on its return.
        let following = try LiveTeams(reader, merging: false)
        let savedToken = try reader.currentToken()

        proxy.cutOff()
        var ids: [ManagedObjectID] = []
        for round in 0..<5 {
            ids.append(try writer.insertTeam("Written while cut off \(round)", wins: Int16(20 + round)))
        }
        let failure = following.context.performAndWait { () -> (any Error)? in
            do {
                _ = try following.context.fetch(Team.fetchRequest())
                return nil
            } catch {
                return error
            }
        }
        #expect(failure is PersistentStoreError, "a fetch while cut off: \(String(describing: failure))")
        Thread.sleep(forTimeInterval: 2)
        #expect(reader.coordinator.generationGivenToContexts < (try writer.coordinator.storeGeneration()))
        proxy.restore()

        let generation = try writer.coordinator.storeGeneration()
        let deadline = Date().addingTimeInterval(10)
        while reader.coordinator.generationGivenToContexts < generation {
            try #require(Date() < deadline, "the reader did not catch up (at \(reader.coordinator.generationGivenToContexts) of \(generation))")
            Thread.sleep(forTimeInterval: 0.01)
        }
        merging.context.performAndWait {}
        #expect(try merging.checkBatches() >= 1)
        #expect(try merging.wins(of: try reader.sameObject(ids[4])) == 24)
        let followed = try following.context.performAndWait { try following.context.mergeHistory(after: savedToken) }
        #expect(followed == (try reader.currentToken()))
        #expect(try following.checkBatches() == 5)
    }
}
#endif
