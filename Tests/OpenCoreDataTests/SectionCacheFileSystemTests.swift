import Foundation
@testable import OpenCoreData
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Section caches live in a directory that other programs, and people, can put things in: the
/// library touches only its own cache files there, reads only regular files, and never more than
/// a bound, and follows no symbolic link.
@Suite struct SectionCacheFileSystemTests {
    private static let files = FileManager.default

    private static func contents(rows: Int = 3) -> SectionCacheContents {
        SectionCacheContents(configuration: "config", storeIdentifier: "store", storeGeneration: 1,
                             sections: [.init(name: "all", indexTitle: nil, count: rows)], rowKeys: (0..<Int64(rows)).map { $0 + 1 })
    }

    /// A root with two caches, and beside and inside them what is not a cache: a file, a directory
    /// of someone else's, a file of someone's in a cache's directory, and a link to a directory
    /// outside the root that holds a file named like a cache.
    private struct Layout {
        let directory = TemporaryDirectory()
        let writer: SectionCacheWriter
        var root: URL { writer.location.root }
        var outside: URL { directory.url.appendingPathComponent("outside", isDirectory: true) }
        var others: [URL] {
            [root.appendingPathComponent("notes.txt"), root.appendingPathComponent("other/keep.txt"),
             writer.location.directoryURL(forCacheName: "two").appendingPathComponent("user.txt"),
             outside.appendingPathComponent("sectionInfo")]
        }

        init() throws {
            writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url.appendingPathComponent("caches", isDirectory: true)))
            for name in ["one", "two"] { writer.write(SectionCacheFileSystemTests.contents(), cacheName: name) }
            writer.waitUntilIdle()
            try files.createDirectory(at: root.appendingPathComponent("other"), withIntermediateDirectories: true)
            try files.createDirectory(at: outside, withIntermediateDirectories: true)
            for file in others { try Data("not a cache".utf8).write(to: file) }
            try files.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: outside)
        }

        func survivors() -> [String] {
            others.filter { files.fileExists(atPath: $0.path) }.map { $0.path.replacingOccurrences(of: directory.url.path + "/", with: "") }
        }

        var everyOther: [String] {
            others.map { $0.path.replacingOccurrences(of: directory.url.path + "/", with: "") }
        }
    }

    @Test func deletingEveryCacheRemovesOnlyCacheFiles() throws {
        let layout = try Layout()
        layout.writer.remove(cacheName: nil)
        #expect(layout.writer.read(cacheName: "one") == nil)
        #expect(layout.writer.read(cacheName: "two") == nil)
        #expect(layout.survivors() == layout.everyOther)
        #expect(Self.files.fileExists(atPath: layout.root.appendingPathComponent("link").path), "the link itself is not a cache")
        #expect(!Self.files.fileExists(atPath: layout.writer.location.directoryURL(forCacheName: "one").path),
                "an emptied cache directory stays behind")
    }

    @Test func deletingOneCacheRemovesOnlyItsFile() throws {
        let layout = try Layout()
        layout.writer.remove(cacheName: "two")
        layout.writer.remove(cacheName: "link")
        #expect(layout.writer.read(cacheName: "two") == nil)
        #expect(layout.writer.read(cacheName: "one") != nil)
        #expect(layout.survivors() == layout.everyOther)
    }

    /// A FIFO where the file should be made reading wait forever for a writer.
    @Test func aFIFOInPlaceOfTheFileIsRefusedAtOnce() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        let file = writer.location.fileURL(forCacheName: "fifo")
        try Self.files.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #require(mkfifo(file.path, 0o600) == 0)
        let outcome = Self.readWithin(seconds: 30, writer, "fifo") {
            // Unblocks a reader stuck opening the FIFO, so that the test ends either way.
            let descriptor = open(file.path, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 { close(descriptor) }
        }
        guard case .some(.some(.failure(.notARegularFile))) = outcome else {
            Issue.record("reading a FIFO gave \(String(describing: outcome)) (nil: it did not return within 30 s)")
            return
        }
        // The next write replaces it.
        writer.write(Self.contents(), cacheName: "fifo")
        writer.waitUntilIdle()
        #expect(try writer.read(cacheName: "fifo")?.get() == Self.contents())
    }

    /// Links are not followed, to a device that never ends, to a valid cache elsewhere, or as the
    /// cache's directory.
    @Test(arguments: ["/dev/zero", "valid cache elsewhere", "directory link"])
    func aSymbolicLinkIsNotFollowed(target: String) throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url.appendingPathComponent("caches")))
        let elsewhere = SectionCacheWriter(location: SectionCacheLocation(root: directory.url.appendingPathComponent("elsewhere")))
        elsewhere.write(Self.contents(), cacheName: "real")
        elsewhere.waitUntilIdle()
        let file = writer.location.fileURL(forCacheName: "linked")
        try Self.files.createDirectory(at: writer.location.root, withIntermediateDirectories: true)
        switch target {
        case "directory link":
            try Self.files.createSymbolicLink(at: file.deletingLastPathComponent(),
                                              withDestinationURL: elsewhere.location.directoryURL(forCacheName: "real"))
        default:
            try Self.files.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let destination = target == "/dev/zero" ? URL(fileURLWithPath: "/dev/zero") : elsewhere.location.fileURL(forCacheName: "real")
            try Self.files.createSymbolicLink(at: file, withDestinationURL: destination)
        }
        let outcome = Self.readWithin(seconds: 30, writer, "linked") {}
        guard case .some(.some(.failure)) = outcome else {
            Issue.record("reading through a link to \(target) gave \(String(describing: outcome)) (nil: it did not return within 30 s; .some(nil): no cache, which a link must not read as)")
            return
        }
        // Writing does not go through a linked directory either, and deleting leaves the target.
        writer.write(SectionCacheContents(configuration: "other", storeIdentifier: "s", storeGeneration: 2,
                                          sections: [.init(name: "", indexTitle: nil, count: 0)], rowKeys: []), cacheName: "linked")
        writer.waitUntilIdle()
        writer.remove(cacheName: "linked")
        writer.remove(cacheName: nil)
        #expect(try elsewhere.read(cacheName: "real")?.get() == Self.contents())
    }

    /// A regular file larger than the bound is refused without being read.
    @Test func aFileLargerThanTheBoundIsNotRead() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url), maximumFileSize: 4_096)
        writer.write(Self.contents(rows: 100), cacheName: "fits")
        writer.write(Self.contents(rows: 1_000), cacheName: "large")
        writer.waitUntilIdle()
        #expect(try writer.read(cacheName: "fits")?.get() == Self.contents(rows: 100))
        #expect(writer.read(cacheName: "large") == nil, "a cache too large to read back was written")
        // A sparse file costs no disk: 1 TiB announced, refused from its size alone.
        let file = writer.location.fileURL(forCacheName: "huge")
        try Self.files.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #require(Self.files.createFile(atPath: file.path, contents: Data(SectionCacheFile.encode(Self.contents()))))
        try #require(truncate(file.path, 1 << 40) == 0)
        guard case .failure(.tooLarge(let size, let limit)) = writer.read(cacheName: "huge") else {
            Issue.record("a 1 TiB file was not refused for its size")
            return
        }
        #expect(size == 1 << 40 && limit == 4_096)
    }

    /// A write clears temporary files an interrupted write left, but only files: a directory of
    /// that name is someone else's.
    @Test func onlyAbandonedTemporaryFilesAreCleared() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        let cache = writer.location.directoryURL(forCacheName: "teams")
        let abandonedFile = cache.appendingPathComponent(".sectionInfo-A.tmp")
        let lookalike = cache.appendingPathComponent(".sectionInfo-B.tmp", isDirectory: true)
        try Self.files.createDirectory(at: lookalike, withIntermediateDirectories: true)
        try Data("theirs".utf8).write(to: lookalike.appendingPathComponent("keep.txt"))
        try Data("partial".utf8).write(to: abandonedFile)
        for url in [abandonedFile, lookalike] {
            try Self.files.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: url.path)
        }
        writer.write(Self.contents(), cacheName: "teams")
        writer.waitUntilIdle()
        #expect(!Self.files.fileExists(atPath: abandonedFile.path))
        #expect(Self.files.fileExists(atPath: lookalike.appendingPathComponent("keep.txt").path))
        writer.remove(cacheName: "teams")
        #expect(Self.files.fileExists(atPath: lookalike.appendingPathComponent("keep.txt").path))
        #expect(writer.read(cacheName: "teams") == nil)
    }

    /// Reads on another thread, waiting at most `seconds`; `unblock` runs if the read is still
    /// going then, and the read's outcome is nil.
    private static func readWithin(seconds: Double, _ writer: SectionCacheWriter, _ name: String,
                                   unblock: @escaping @Sendable () -> Void) -> Result<SectionCacheContents, SectionCacheError>?? {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<SectionCacheContents, SectionCacheError>??>(nil)
        // A thread of its own: under a full test run the global queue's threads can all be
        // blocked by other tests for longer than the bound, which once failed this test in CI.
        let reader = Thread {
            let read = writer.read(cacheName: name)
            result.withLock { $0 = .some(read) }
            done.signal()
        }
        reader.start()
        if done.wait(timeout: .now() + seconds) == .timedOut {
            unblock()
            done.wait()
            return nil
        }
        return result.withLock { $0 }
    }
}
