import ArgumentParser
import FetchedResultsChecking

// ocd-bench: the fetched results controller against raw SQLite and refetch-and-diff, each
// scenario next to its baseline measured in the same run; with --fuzz-batches, the controller's
// differential fuzzer at scale. See the README's Performance section.
@main
struct OCDBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocd-bench",
        abstract: "The fetched results controller against raw SQLite and refetch-and-diff, or its differential fuzzer at scale."
    )

    @OptionGroup var options: BenchOptions

    func run() throws {
        // This program run again as the other process of --other-process.
        if let store = options.deliveryWriterStore {
            try DeliveryWriter.run(storePath: store)
            return
        }
        if let store = options.ingestWriterStore {
            try IngestWriter.run(location: store)
            return
        }
        if options.ingest, options.postgresServer == nil {
            try IngestRun(options: options, server: nil).run()
            return
        }
        #if Postgres
        if let server = options.postgresServer {
            try PostgresRun(options: options, server: server).run()
            return
        }
        #endif
        if let store = options.cardWriterStore {
            throw ExitCode(CardWriter.run(storeLocation: store))
        }
        if options.otherProcess, options.fuzzBatches == nil {
            try OtherProcessRun(options: options).run()
            return
        }
        if options.historyCost {
            try HistoryCostRun(options: options).run()
            return
        }
        if options.measuresTimings {
            try TimingRun(options: options).run()
        }
        if let batches = options.fuzzBatches,
           !Self.runFuzzer(batches: batches, seed: options.fuzzSeed ?? FuzzSeed.standard, otherProcess: options.otherProcess) {
            throw ExitCode.failure
        }
    }

    /// Runs the fuzzer and prints its table; false when a run met a mismatch or a store error.
    static func runFuzzer(batches: Int, seed: UInt64, otherProcess: Bool = false) -> Bool {
        let campaign = FuzzCampaign(batches: batches, seed: seed, otherProcess: otherProcess)
        let result = campaign.run()
        print(result.table(seed: seed, runs: campaign.plan.runs.count, configurations: campaign.configurations.count))
        if let failure = result.failureReport(configurations: campaign.configurations.count, otherProcess: otherProcess) { print(failure) }
        return result.passed
    }
}
