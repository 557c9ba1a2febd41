import FetchedResultsChecking
import Foundation
import Testing

// The fetched results fuzzer with its background batches made by another process
// (`CrossProcessTestWriter`): saves, batch updates, deletes and inserts, and saves the process is
// killed in the middle of. Nothing tells this process what the other one did; the commits reach
// its controllers through the store's files (SQLite) or its channel (PostgreSQL) and history
// alone, and every batch is checked as in the in-process fuzzer. `ocd-bench --fuzz-batches N
// --other-process` runs it at scale on SQLite.
//
// Environment:
//   OCD_XPROC_FUZZ_BATCHES=<n>   batches per configuration; default 250
//   OCD_FRC_FUZZ_SEED=<n>        base seed (decimal or 0x hex)

@Suite struct CrossProcessDifferentialTests {
    /// The configurations on a store another process can open.
    static let sharedStoreConfigurations = FuzzConfiguration.all.filter { $0.store != .inMemory }

    @Test(arguments: sharedStoreConfigurations)
    func everyBatchOfAnotherProcessTurnsTheOldRowsIntoTheNewOnes(configuration: FuzzConfiguration) throws {
        let batches = Int(ProcessInfo.processInfo.environment[FuzzEnvironment.otherProcessBatchesVariable] ?? "") ?? 250
        let seed = try #require(FuzzEnvironment.seed(), "\(FuzzEnvironment.seedVariable) must be a decimal or 0x hex number")
        let writer = try #require(CrashHarness.executableURL(named: "CrossProcessTestWriter"),
                                  "CrossProcessTestWriter was not found; build it with `swift build --build-tests`")
        let run = try FetchedResultsFuzzRun(configuration: configuration, seed: configuration.seed(base: seed), otherProcess: [writer.path])
        let report = try run.run(batches: batches)
        if let mismatch = report.mismatch {
            Issue.record("\(mismatch)")
        }
        print("cross-process fuzzer, \(configuration.name): \(report.summary)")
        #expect(report.batches == batches)
        #expect(report.otherProcessBatches > batches / 5)
        #expect(report.otherProcessKills > 0)
        #expect(report.objectChanges[.insert, default: 0] > 0 && report.objectChanges[.delete, default: 0] > 0)
        #expect(report.objectChanges[.move, default: 0] > 0 && report.objectChanges[.update, default: 0] > 0)
    }
}
