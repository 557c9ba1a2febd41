public import OpenCoreData

/// What a fuzz run checked, and the first batch that did not check out.
public struct FuzzReport: Sendable {
    /// Batches made and checked, the mismatching one included.
    public var batches = 0
    /// Object changes the classic delegate reported, by type.
    public var objectChanges: [FetchedResultsChangeType: Int] = [:]
    /// Section changes the classic delegate reported, by type: inserts and deletes.
    public var sectionChanges: [FetchedResultsChangeType: Int] = [:]
    /// Moves to their own index paths, needed because the row crossed unchanged rows.
    public var movesInPlace = 0
    /// Batches saved in the background context and merged into the controller's.
    public var mergedBatches = 0
    /// Batches saved in the controller's own context.
    public var savedBatches = 0
    /// Batches another process committed (saves and batch requests), merged from the store.
    public var otherProcessBatches = 0
    /// Times the other process was killed in the middle of a save.
    public var otherProcessKills = 0
    /// The first batch whose changes did not give the rows of a fresh fetch.
    public var mismatch: FuzzMismatch?

    /// An empty report.
    public init() {}

    /// Adds another run's counts; the first mismatch is kept.
    public mutating func add(_ other: FuzzReport) {
        batches += other.batches
        objectChanges.merge(other.objectChanges, uniquingKeysWith: +)
        sectionChanges.merge(other.sectionChanges, uniquingKeysWith: +)
        movesInPlace += other.movesInPlace
        mergedBatches += other.mergedBatches
        savedBatches += other.savedBatches
        otherProcessBatches += other.otherProcessBatches
        otherProcessKills += other.otherProcessKills
        if mismatch == nil { mismatch = other.mismatch }
    }

    /// The counts on one line, for a test's output.
    public var summary: String {
        func list(_ counts: [FetchedResultsChangeType: Int]) -> String {
            counts.isEmpty ? "none"
                : counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        let other = otherProcessBatches + otherProcessKills == 0 ? ""
            : ", \(otherProcessBatches) from another process (killed \(otherProcessKills) times while saving)"
        return "\(batches) batches, \(mergedBatches) merged, \(savedBatches) saved\(other); changes \(list(objectChanges)); "
            + "section changes \(list(sectionChanges)); \(movesInPlace) moves in place"
    }
}

/// A batch whose recorded changes, applied to the previous rows, did not give a fresh fetch's rows.
public struct FuzzMismatch: Sendable, CustomStringConvertible {
    /// The set-up's name.
    public let configuration: String
    /// The base seed: with the set-up's salt, the run's seed.
    public let baseSeed: UInt64
    /// The run's seed.
    public let seed: UInt64
    /// The batch's number in its run, from 1: a replay of this many batches ends with it.
    public let batch: Int
    /// What differed, and the operations of the batch.
    public let details: String

    public var description: String {
        "\(configuration), seed \(FuzzSeed.text(seed)) (base \(FuzzSeed.text(baseSeed))), batch \(batch):\n\(details)"
    }

    /// The shell command that replays the run up to this batch in the differential test.
    public var testReplayCommand: String { testReplayCommand(otherProcess: false) }

    /// The shell command that replays the run up to this batch: in the differential test, or,
    /// for a run whose background batches came from another process, in the cross-process test
    /// (which replays that process's writes, not their timing, so a replay may pass).
    public func testReplayCommand(otherProcess: Bool) -> String {
        let seed = "\(FuzzEnvironment.seedVariable)=\(FuzzSeed.text(baseSeed))"
        return otherProcess
            ? "\(seed) \(FuzzEnvironment.otherProcessBatchesVariable)=\(batch) swift test --filter CrossProcessDifferentialTests"
            : "\(seed) \(FuzzEnvironment.batchesVariable)=\(batch) swift test --filter FetchedResultsDifferentialTests"
    }
}
