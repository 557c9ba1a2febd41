import FetchedResultsChecking
import Foundation
import Synchronization

/// `--fuzz-batches`: the controller's differential fuzzer over many batches, cut into runs (see
/// ``FuzzPlan``) that workers take in turn, one worker per core.
///
/// Each run has its own store and contexts, so workers share only the tally. They are threads of
/// their own, not Dispatch's: a run blocks in `performAndWait` while its contexts' queues
/// deliver merges, and those queues need Dispatch's few pool threads free.
struct FuzzCampaign {
    let plan: FuzzPlan
    let batches: Int
    let seed: UInt64
    let configurations: [FuzzConfiguration]
    /// The command that runs a `CardWriter` (this program again), when another process makes the
    /// background batches.
    let otherProcess: [String]?

    init(batches: Int, seed: UInt64, otherProcess: Bool = false) {
        // Another process can share only a store on disk.
        configurations = otherProcess ? FuzzConfiguration.all.filter { $0.store == .sqlite } : FuzzConfiguration.all
        plan = FuzzPlan(batches: batches, seed: seed, configurations: configurations)
        self.batches = batches
        self.seed = seed
        self.otherProcess = otherProcess ? [ChildProcess.executable.path, "--card-writer"] : nil
    }

    /// Runs every run of the plan, reporting progress to standard error every few seconds.
    func run() -> FuzzTally.Result {
        let tally = FuzzTally(plan: plan)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, plan.runs.count))
        progress("fuzzing: \(batches) batches in \(plan.runs.count) runs on \(workers) worker(s), seed \(FuzzSeed.text(seed))")
        let start = now()
        let finished = DispatchGroup()
        for number in 1...workers {
            finished.enter()
            let worker = Thread { [otherProcess] in
                Self.work(tally, otherProcess: otherProcess)
                finished.leave()
            }
            worker.name = "fuzz worker \(number)"
            worker.start()
        }
        while finished.wait(timeout: .now() + .seconds(5)) == .timedOut {
            let done = tally.batchesDone
            let seconds = Double(now() - start) / 1e9
            let rate = Double(done) / seconds
            let left = rate > 0 ? Self.duration(Double(batches - done) / rate) : "?"
            progress(String(format: "fuzzing: %d / %d batches, %.0f batches/s, %@ left", done, batches, rate, left))
        }
        return tally.result(elapsedSeconds: Double(now() - start) / 1e9)
    }

    private static func work(_ tally: FuzzTally, otherProcess: [String]?) {
        while let (index, run) = tally.nextRun() {
            do {
                let fuzzer = try FetchedResultsFuzzRun(configuration: run.configuration, seed: run.configuration.seed(base: run.baseSeed),
                                                       otherProcess: otherProcess)
                let report = try fuzzer.run(batches: run.batches) { _ in tally.batchChecked() }
                tally.finish(run: index, report)
            } catch {
                tally.fail(run: index, "\(run.configuration.name), base seed \(FuzzSeed.text(run.baseSeed)): \(error)")
            }
        }
    }

    /// `42 s`, `12 min`, `1.5 h`.
    static func duration(_ seconds: Double) -> String {
        seconds < 90 ? String(format: "%.0f s", seconds)
            : seconds < 5400 ? String(format: "%.0f min", seconds / 60) : String(format: "%.1f h", seconds / 3600)
    }
}
