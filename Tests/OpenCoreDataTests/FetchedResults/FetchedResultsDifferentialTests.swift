import FetchedResultsChecking
import Testing

// The fetched results controller's differential fuzzer (FetchedResultsChecking's
// FetchedResultsFuzzRun), once per configuration: seeded random batches of changes, each checked
// against a fresh fetch. `ocd-bench --fuzz-batches N` runs the same fuzzer at scale.
//
// Environment:
//   OCD_FRC_FUZZ_BATCHES=<n>   batches per configuration; default 600 (3,000 in all with the
//                              Postgres trait; ocd-bench runs 2,000 more in CI, millions at scale)
//   OCD_FRC_FUZZ_SEED=<n>      base seed (decimal or 0x hex)

@Suite struct FetchedResultsDifferentialTests {
    /// Batches per configuration when the environment asks for none: five configurations of
    /// 600 each, with ocd-bench's 2,000 in CI, keep this suite near half a minute of the 2-core CI
    /// machine (1,000 took about 90 s of CI's 30 minutes).
    static let batches = 600

    @Test(arguments: FuzzConfiguration.all)
    func everyBatchTurnsTheOldRowsIntoTheNewOnes(configuration: FuzzConfiguration) throws {
        let batches = try #require(FuzzEnvironment.batches(default: Self.batches), "\(FuzzEnvironment.batchesVariable) must be a positive count")
        let seed = try #require(FuzzEnvironment.seed(), "\(FuzzEnvironment.seedVariable) must be a decimal or 0x hex number")
        let run = try FetchedResultsFuzzRun(configuration: configuration, seed: configuration.seed(base: seed))
        let report = try run.run(batches: batches)
        if let mismatch = report.mismatch {
            Issue.record("\(mismatch)\nreplay: \(mismatch.testReplayCommand)")
        }
        print("fetched results fuzzer, \(configuration.name): \(report.summary)")
        #expect(report.batches == batches)
        // The batches must exercise what they are meant to.
        #expect(report.objectChanges[.insert, default: 0] > 0 && report.objectChanges[.delete, default: 0] > 0)
        #expect(report.objectChanges[.move, default: 0] > 0 && report.objectChanges[.update, default: 0] > 0)
        #expect(report.mergedBatches > 0 && report.savedBatches > 0)
        if configuration.sectionKeyPath != nil { #expect(!report.sectionChanges.isEmpty) }
    }
}
