@testable import FetchedResultsChecking
import Testing

/// A mismatch's replay command runs the test that found it: the in-process differential test,
/// or the cross-process one for a run whose background batches came from another process, with
/// the batch count in the variable that test reads.
@Suite struct FuzzReplayCommandTests {
    private let mismatch = FuzzMismatch(configuration: "sqlite, sectioned", baseSeed: 0xF2C0_2026, seed: 0x1234, batch: 84,
                                        details: "rows differ")

    @Test func anInProcessRunReplaysInTheDifferentialTest() {
        #expect(mismatch.testReplayCommand == "OCD_FRC_FUZZ_SEED=0xf2c02026 OCD_FRC_FUZZ_BATCHES=84 swift test --filter FetchedResultsDifferentialTests")
        #expect(mismatch.testReplayCommand(otherProcess: false) == mismatch.testReplayCommand)
    }

    @Test func anotherProcessRunReplaysInTheCrossProcessTest() {
        #expect(mismatch.testReplayCommand(otherProcess: true)
            == "OCD_FRC_FUZZ_SEED=0xf2c02026 OCD_XPROC_FUZZ_BATCHES=84 swift test --filter CrossProcessDifferentialTests")
        // The suite the command names: this compiles only while it exists under that name.
        _ = CrossProcessDifferentialTests.self
    }
}
