import FetchedResultsChecking
@testable import OCDBench
import Testing

/// `--fuzz-batches` on a few batches: the campaign spreads them over its runs, checks each and
/// reports no mismatch; the scale is CI's and the README's.
@Suite struct FuzzCampaignSmokeTests {
    @Test func aFewBatchesAreCheckedWithoutMismatch() {
        let result = FuzzCampaign(batches: 40, seed: FuzzSeed.standard).run()
        #expect(result.passed, "\(result.failureReport(configurations: FuzzConfiguration.all.count, otherProcess: false) ?? "")")
        let table = result.table(seed: FuzzSeed.standard, runs: 4, configurations: FuzzConfiguration.all.count)
        #expect(table.contains("| batches checked | 40 ") && table.contains("| mismatches | 0 |"), "\(table)")
    }
}
