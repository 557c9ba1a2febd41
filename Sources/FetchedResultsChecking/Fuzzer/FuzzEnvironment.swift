import Foundation

/// The seeds the fuzzer starts from, written as decimal or `0x` hexadecimal numbers.
public enum FuzzSeed {
    /// The base seed the tests use unless told otherwise.
    public static let standard: UInt64 = 0xF2C0_2026

    /// A seed from `12345` or `0x3039`; nil when the text is neither.
    public static func parse(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    /// `0x…`, as seeds are printed and passed back.
    public static func text(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }
}

/// The environment variables through which the differential test is run at another size or seed.
public enum FuzzEnvironment {
    /// Batches per set-up.
    public static let batchesVariable = "OCD_FRC_FUZZ_BATCHES"
    /// The base seed, decimal or `0x` hexadecimal.
    public static let seedVariable = "OCD_FRC_FUZZ_SEED"
    /// Batches per SQLite set-up in the cross-process differential test.
    public static let otherProcessBatchesVariable = "OCD_XPROC_FUZZ_BATCHES"
    /// Batches per set-up when the variable is not set and the caller names no other count, and
    /// the length of one ocd-bench fuzz run (``FuzzPlan/runLength``).
    public static let standardBatches = 1_700

    /// The batches per set-up the environment asks for, `standard` when it asks for none; nil
    /// when it asks for something that is not a positive count.
    public static func batches(default standard: Int = standardBatches) -> Int? {
        guard let text = ProcessInfo.processInfo.environment[batchesVariable] else { return standard }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The base seed the environment asks for; nil when it is not a seed.
    public static func seed() -> UInt64? {
        guard let text = ProcessInfo.processInfo.environment[seedVariable] else { return FuzzSeed.standard }
        return FuzzSeed.parse(text)
    }
}
