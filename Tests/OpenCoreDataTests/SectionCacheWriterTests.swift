import Foundation
@testable import OpenCoreData
import Testing

/// Writing section cache files: off the caller's queue, atomically, coalesced.
@Suite struct SectionCacheWriterTests {
    private func contents(generation: Int64, rows: Int = 10) -> SectionCacheContents {
        SectionCacheContents(configuration: "config", storeIdentifier: "store", storeGeneration: generation,
                             sections: [.init(name: "all", indexTitle: nil, count: rows)],
                             rowKeys: (0..<Int64(rows)).map { $0 + generation })
    }

    @Test func writesAndReadsBack() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        #expect(writer.read(cacheName: "teams") == nil)
        writer.write(contents(generation: 1), cacheName: "teams")
        writer.waitUntilIdle()
        #expect(try writer.read(cacheName: "teams")?.get() == contents(generation: 1))
        // Only the file remains: the temporary one was renamed over it.
        let files = try FileManager.default.contentsOfDirectory(atPath: writer.location.directoryURL(forCacheName: "teams").path)
        #expect(files == ["sectionInfo"])
    }

    @Test func aDamagedFileReadsAsAFailure() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        writer.write(contents(generation: 1), cacheName: "teams")
        writer.waitUntilIdle()
        let file = writer.location.fileURL(forCacheName: "teams")
        try Data("garbage".utf8).write(to: file)
        #expect(writer.read(cacheName: "teams") == .failure(.badMagic))
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        guard case .failure(.notARegularFile(kind: "a directory")) = writer.read(cacheName: "teams") else {
            Issue.record("a directory in place of the file was not unreadable")
            return
        }
    }

    @Test func queuedWritesOfAFileCoalesce() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        writer.holdingWrites {
            for generation in 1...5 { writer.write(contents(generation: Int64(generation)), cacheName: "teams") }
            writer.write(contents(generation: 9), cacheName: "players")
        }
        writer.waitUntilIdle()
        #expect(writer.filesWritten == 2)
        #expect(try writer.read(cacheName: "teams")?.get() == contents(generation: 5))
        #expect(try writer.read(cacheName: "players")?.get() == contents(generation: 9))
        // Once the queue has taken a write, the next one is queued anew.
        writer.write(contents(generation: 6), cacheName: "teams")
        writer.waitUntilIdle()
        #expect(writer.filesWritten == 3)
        #expect(try writer.read(cacheName: "teams")?.get() == contents(generation: 6))
    }

    @Test func removingCancelsQueuedWrites() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        writer.write(contents(generation: 1), cacheName: "kept")
        writer.write(contents(generation: 1), cacheName: "teams")
        writer.waitUntilIdle()
        let removed = DispatchSemaphore(value: 0)
        writer.holdingWrites {
            writer.write(contents(generation: 2), cacheName: "teams")
            writer.write(contents(generation: 2), cacheName: "kept")
            // Removal waits for the queue, which is held: run it elsewhere, and wait until it has
            // cancelled the queued write.
            DispatchQueue.global().async {
                writer.remove(cacheName: "teams")
                removed.signal()
            }
            while writer.hasQueuedWrite(cacheName: "teams") { usleep(1000) }
        }
        removed.wait()
        writer.waitUntilIdle()
        #expect(writer.read(cacheName: "teams") == nil)
        #expect(try writer.read(cacheName: "kept")?.get() == contents(generation: 2))
        #expect(writer.filesWritten == 3)

        writer.holdingWrites { writer.write(contents(generation: 3), cacheName: "kept") }
        writer.remove(cacheName: nil)
        #expect(!FileManager.default.fileExists(atPath: directory.url.path))
        writer.waitUntilIdle()
        #expect(!FileManager.default.fileExists(atPath: directory.url.path))
    }

    /// A reader polling the file while it is rewritten sees whole files only.
    @Test func readersNeverSeeAPartialFile() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        let finished = Locked(false)
        let problems = Locked<[String]>([])
        let reads = Locked(0)
        let readerDone = DispatchSemaphore(value: 0)
        @Sendable func note(_ problem: String) {
            problems.withLock { if $0.count < 5 { $0.append(problem) } }
        }
        let readerStarted = DispatchSemaphore(value: 0)
        // A thread of its own: on a busy machine the shared pool may not run the reader until the
        // writes are over, and then the test would prove nothing.
        Thread.detachNewThread {
            readerStarted.signal()
            while !finished.withLock({ $0 }) {
                switch writer.read(cacheName: "big") {
                case nil:
                    break
                case .success(let read):
                    let expected = (0..<Int64(read.rowKeys.count)).map { $0 + read.storeGeneration }
                    if read.rowKeys != expected { note("generation \(read.storeGeneration) has other keys") }
                case .failure(let error):
                    note("\(error)")
                }
                reads.withLock { $0 += 1 }
            }
            readerDone.signal()
        }
        readerStarted.wait()
        for generation in 0..<30 {
            writer.write(contents(generation: Int64(generation), rows: 50_000), cacheName: "big")
            writer.waitUntilIdle()
        }
        // Keep the last file in place until the reader has read some files whole.
        while reads.withLock({ $0 }) < 30 { usleep(1000) }
        finished.withLock { $0 = true }
        readerDone.wait()
        #expect(problems.withLock { $0 }.isEmpty)
        #expect(reads.withLock { $0 } > 0)
        #expect(try writer.read(cacheName: "big")?.get().storeGeneration == 29)
    }

    @Test func failuresAreLoggedNotThrown() throws {
        let directory = TemporaryDirectory()
        // A file where the root directory should be.
        let root = directory.file("not-a-directory")
        try Data("x".utf8).write(to: root)
        let recorder = LogRecorder()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: root), logger: recorder.logger())
        writer.write(contents(generation: 1), cacheName: "teams")
        writer.waitUntilIdle()
        #expect(writer.filesWritten == 0)
        #expect(recorder.messages.contains { $0.level == .error && $0.text.contains("cannot write section cache") })
    }
}
