import FetchedResultsChecking
import Synchronization

/// What the fuzz workers share: the next run of the plan to take, and what the finished runs
/// found.
final class FuzzTally: Sendable {
    /// Everything the runs found, once they are all done.
    struct Result {
        var report = FuzzReport()
        /// The runs that met a mismatch, by their index in the plan.
        var mismatches: [Int: FuzzMismatch] = [:]
        /// The runs the store stopped, by their index in the plan: not mismatches, but not checked.
        var errors: [Int: String] = [:]
        var elapsedSeconds = 0.0

        /// The mismatch of the earliest run in the plan, so that the same command reports the
        /// same mismatch whichever worker finds it first.
        var firstMismatch: FuzzMismatch? { mismatches.min { $0.key < $1.key }?.value }
        var firstError: String? { errors.min { $0.key < $1.key }?.value }
    }

    private struct State {
        var nextRun = 0
        var batchesDone = 0
        var result = Result()
    }

    private let plan: FuzzPlan
    private let state = Mutex(State())

    init(plan: FuzzPlan) {
        self.plan = plan
    }

    /// The next run to make, with its index in the plan; nil when every run is taken.
    func nextRun() -> (Int, FuzzPlan.Run)? {
        state.withLock { state in
            guard state.nextRun < plan.runs.count else { return nil }
            defer { state.nextRun += 1 }
            return (state.nextRun, plan.runs[state.nextRun])
        }
    }

    func batchChecked() {
        state.withLock { $0.batchesDone += 1 }
    }

    var batchesDone: Int { state.withLock { $0.batchesDone } }

    func finish(run index: Int, _ report: FuzzReport) {
        state.withLock { state in
            state.result.report.add(report)
            if let mismatch = report.mismatch { state.result.mismatches[index] = mismatch }
        }
    }

    func fail(run index: Int, _ message: String) {
        state.withLock { $0.result.errors[index] = message }
    }

    func result(elapsedSeconds: Double) -> Result {
        state.withLock { state in
            var result = state.result
            result.elapsedSeconds = elapsedSeconds
            return result
        }
    }
}
