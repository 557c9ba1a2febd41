/// How a number of batches is spread over the configurations and cut into runs, so that many
/// batches can be checked on several threads and a mismatch is replayed by a short run.
///
/// Each configuration gets an equal share, cut into runs of at most ``runLength`` batches. Run `k`
/// of every configuration starts from base seed ``baseSeed(_:run:)``, which is the given seed
/// itself for run 0: a plan of `configurations × n` batches, `n ≤ runLength`, makes exactly the
/// runs of the differential test with `n` batches per configuration.
public struct FuzzPlan: Sendable {
    /// One run of the plan.
    public struct Run: Sendable {
        /// The set-up the run drives.
        public let configuration: FuzzConfiguration
        /// The base seed of this run's round; with the configuration's salt, the run's seed.
        public let baseSeed: UInt64
        /// Batches to make and check.
        public let batches: Int
    }

    /// The differential test's batches per configuration: a run checks what the test checks.
    public static let runLength = FuzzEnvironment.standardBatches

    /// The runs, round by round, so that every configuration is under way from the start.
    public let runs: [Run]

    /// A plan of `batches` batches in all from `seed`.
    public init(batches: Int, seed: UInt64, configurations: [FuzzConfiguration] = FuzzConfiguration.all) {
        guard !configurations.isEmpty else {
            runs = []
            return
        }
        let shares = configurations.indices.map { index in
            batches / configurations.count + (index < batches % configurations.count ? 1 : 0)
        }
        let rounds = ((shares.max() ?? 0) + Self.runLength - 1) / Self.runLength
        var runs: [Run] = []
        for round in 0..<rounds {
            for (configuration, share) in zip(configurations, shares) where share > round * Self.runLength {
                runs.append(Run(configuration: configuration, baseSeed: Self.baseSeed(seed, run: round),
                                batches: min(Self.runLength, share - round * Self.runLength)))
            }
        }
        self.runs = runs
    }

    /// The base seed of round `run`: `seed` for the first, well apart for the others.
    public static func baseSeed(_ seed: UInt64, run: Int) -> UInt64 {
        seed &+ UInt64(run) &* 0x9E37_79B9_7F4A_7C15
    }
}
