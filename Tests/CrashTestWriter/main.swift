// A writer for the crash tests: it saves batches into an SQLite store until it is killed.
//
// Usage: CrashTestWriter <store path> [batch size] [batches]
//        CrashTestWriter --count-read-only <store path>
//
// Each iteration inserts one batch of `batch size` entries and marks a few entries of the previous
// batch as touched by this one, in ONE save; then it prints "committed <batch>". The test kills it
// with SIGKILL at a random moment and checks that the store holds exactly the batches whose saves
// committed, each whole, with the touches of each present batch and of no absent one.
//
// With a number of batches, it stops after saving that many and exits with status 0: the section
// cache tests use it as another process that writes the store while theirs has it open.
//
// The entity must stay identical to `CrashEntry` in Tests/OpenCoreDataTests/CrashTests.swift: the
// test reopens the store with its own copy of the model.

import Foundation
import OpenCoreData

/// One row of a batch. `touchedBy` is set by the save of the next batch.
final class CrashEntry: ManagedObject {
    @Managed var batch: Int64 = 0
    @Managed var index: Int64 = 0
    @Managed var touchedBy: Int64 = 0
    @Managed var payload: String?
}

/// Which entries of batch `batch - 1` the save of `batch` touches; the test uses the same rule.
/// Several indices spread over the batch, so the updates land on different pages.
func touchedIndices(byBatch batch: Int64, batchSize: Int64) -> Set<Int64> {
    Set([batch % batchSize, (batch * 7 + 3) % batchSize, (batch * 13 + 5) % batchSize])
}

/// Writes a line and flushes it at once: the test reads it through a pipe and must see every
/// line written before the kill.
func report(_ line: String) {
    print(line)
    fflush(nil)  // every output stream: naming `stdout` is not concurrency-safe in Swift 6
    reportFile?.append(line)
}

/// A second copy of the reports, in a file the crash test names with `OCD_CRASH_REPORT_FILE`.
/// A line written there is in the file once `write` returns, whatever happens to the process
/// next, and the test reads it after the writer is dead: no pipe, no end of file to wait for.
final class ReportFile: Sendable {
    private let descriptor: Int32

    init?(path: String?) {
        guard let path else { return nil }
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
    }

    func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

let reportFile = ReportFile(path: ProcessInfo.processInfo.environment["OCD_CRASH_REPORT_FILE"])

/// Stops the writer with a message the test shows when the writer dies on its own.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CrashTestWriter: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments

// `CrashTestWriter --count-read-only <store path>`: opens the store read-only and prints
// "count <entries>", or "error <code> <message>" when it cannot. The read-only store tests run it
// with dropped privileges, where root would not feel a read-only directory.
if arguments.count == 3, arguments[1] == "--count-read-only" {
    do {
        let reader = PersistentContainer(name: "CrashTest",
                                         managedObjectModel: try ManagedObjectModel(managedObjectClasses: [CrashEntry.self]))
        let description = PersistentStoreDescription(url: URL(fileURLWithPath: arguments[2]))
        description.isReadOnly = true
        reader.persistentStoreDescriptions = [description]
        try reader.loadPersistentStores()
        let context = reader.newBackgroundContext()
        let count = try context.performAndWait { try context.count(for: CrashEntry.fetchRequest()) }
        report("count \(count)")
    } catch let error as PersistentStoreError {
        report("error \(error.code.rawValue) \(error.message)")
    } catch {
        report("error 0 \(error)")
    }
    exit(0)
}

guard arguments.count >= 2 else { fail("usage: CrashTestWriter <store path> [batch size] [batches]") }
let storeURL = URL(fileURLWithPath: arguments[1])
let batchSize: Int64 = arguments.count >= 3 ? Int64(arguments[2]) ?? 20 : 20
guard batchSize > 0 else { fail("the batch size must be positive") }
let batchLimit: Int64? = arguments.count >= 4 ? Int64(arguments[3]) : nil

let container: PersistentContainer
do {
    container = PersistentContainer(name: "CrashTest",
                                    managedObjectModel: try ManagedObjectModel(managedObjectClasses: [CrashEntry.self]))
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
    try container.loadPersistentStores()
} catch {
    fail("cannot open \(storeURL.path): \(error)")
}

let context = container.newBackgroundContext()
context.name = "CrashTestWriter"

/// The last batch in the store (whole, or the test would already have failed) and its entries,
/// so that the writer continues where the previous, killed, run stopped.
let (firstBatch, lastEntries): (Int64, [Int64: CrashEntry]) = context.performAndWait {
    do {
        let request = CrashEntry.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "batch", ascending: false)]
        request.fetchLimit = Int(batchSize)
        let newest = try context.fetch(request)
        guard let last = newest.first?.batch else { return (0, [:]) }
        let entries = newest.filter { $0.batch == last }
        return (last + 1, Dictionary(entries.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first }))
    } catch {
        fail("cannot read the last batch: \(error)")
    }
}

report("ready \(firstBatch)")

/// A payload of a few hundred bytes to a few kilobytes, so that one save spans many pages and a
/// torn write would show.
func payload(batch: Int64, index: Int64) -> String {
    let length = 200 + Int((batch &* 31 &+ index &* 17) % 2_000)
    return String(repeating: Character(UnicodeScalar(UInt8(97 + (batch + index) % 26))), count: length)
}

var previous = lastEntries
var batch = firstBatch
while batchLimit.map({ batch - firstBatch < $0 }) ?? true {
    let current = batch
    previous = context.performAndWait {
        var inserted: [Int64: CrashEntry] = [:]
        for index in 0..<batchSize {
            let entry = CrashEntry(context: context)
            entry.batch = current
            entry.index = index
            entry.payload = payload(batch: current, index: index)
            inserted[index] = entry
        }
        for index in touchedIndices(byBatch: current, batchSize: batchSize) {
            previous[index]?.touchedBy = current
        }
        do {
            try context.save()
        } catch {
            fail("saving batch \(current): \(error)")
        }
        return inserted
    }
    report("committed \(current)")
    batch += 1
}
// Closes the store as a quitting app does, so that the file holds every batch.
for store in container.persistentStoreCoordinator.persistentStores {
    try? container.persistentStoreCoordinator.remove(store)
}
