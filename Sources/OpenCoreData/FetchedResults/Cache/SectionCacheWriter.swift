import Foundation
package import Logging

/// Reads section cache files, and writes them off the caller's queue.
///
/// Writes run one at a time on a serial utility queue and replace the file atomically (a
/// temporary file in the same directory, then `rename`), so a reader sees the old file or the
/// new one, never part of one. Writes coalesce: while a write of a file waits in the queue,
/// later writes of that file replace its contents, and only the last is written. Failures are
/// logged, never reported to the caller: without its cache a controller only fetches more.
package final class SectionCacheWriter: Sendable {
    package let location: SectionCacheLocation
    private let log: Logger
    private let queue = DispatchQueue(label: "OpenCoreData.SectionCacheWriter", qos: .utility)
    /// The latest contents waiting for each file (by path), made when the write runs. A file has
    /// an entry exactly while a block that will write it is queued; the block takes the entry
    /// when it runs.
    private let pending = Locked<[String: @Sendable () -> SectionCacheContents]>([:])
    private let written = Locked(0)
    /// The largest file read or written, in bytes.
    package let maximumFileSize: Int64
    /// 1 GiB: about 130 million rows, far more than a controller shows.
    package static let defaultMaximumFileSize: Int64 = 1 << 30

    /// A writer for the caches under `location`, taken once: a later change of
    /// ``SectionCacheLocation/overrideRoot`` does not move this writer's files.
    package init(location: SectionCacheLocation = .current, maximumFileSize: Int64 = SectionCacheWriter.defaultMaximumFileSize,
                 logger: Logger = Log.cache) {
        self.location = location
        self.maximumFileSize = maximumFileSize
        self.log = logger
    }

    /// Queues a write of a cache's file, replacing a write of it that has not started yet.
    package func write(_ contents: SectionCacheContents, cacheName: String) {
        write(cacheName: cacheName) { contents }
    }

    /// Queues a write of a cache's file whose contents are made on the writer's queue, so that
    /// a large result is flattened there and not on the caller's queue.
    package func write(cacheName: String, contents: @escaping @Sendable () -> SectionCacheContents) {
        let url = location.fileURL(forCacheName: cacheName)
        let alreadyQueued = pending.withLock { pending in
            defer { pending[url.path] = contents }
            return pending[url.path] != nil
        }
        guard !alreadyQueued else { return }
        queue.async { [self] in
            // Nil when a removal cancelled the write.
            guard let latest = pending.withLock({ $0.removeValue(forKey: url.path) }) else { return }
            store(latest(), at: url)
        }
    }

    /// A cache's file as last written: nil when there is none, a failure when it cannot be read
    /// or decoded, is not a regular file (links are not followed) or is larger than
    /// ``maximumFileSize``. A write still queued is not seen.
    package func read(cacheName: String) -> Result<SectionCacheContents, SectionCacheError>? {
        let read = SectionCacheFiles.contents(inDirectory: location.directoryURL(forCacheName: cacheName), limit: maximumFileSize)
        return read.map { read in
            read.flatMap { data in Result { () throws(SectionCacheError) in try SectionCacheFile.decode(data) } }
        }
    }

    /// Cancels queued writes of a cache (of every cache with nil) and deletes its file (every
    /// cache's with nil), after any write in progress; see ``SectionCacheLocation/deleteCache(named:)``.
    package func remove(cacheName: String?) {
        let path = cacheName.map { location.fileURL(forCacheName: $0).path }
        pending.withLock { pending in
            if let path { pending[path] = nil } else { pending.removeAll() }
        }
        queue.sync {
            do {
                try location.deleteCache(named: cacheName)
            } catch {
                log.error("cannot remove section cache \(cacheName.map { "'\($0)'" } ?? "directory") at \(location.root.path): \(error)")
            }
        }
    }

    /// Returns once every write queued so far is done.
    package func waitUntilIdle() {
        queue.sync {}
    }

    /// How many files were written (after coalescing), for tests and diagnostics.
    package var filesWritten: Int {
        written.withLock { $0 }
    }

    /// Whether a write of a cache waits in the queue. For tests.
    package func hasQueuedWrite(cacheName: String) -> Bool {
        let path = location.fileURL(forCacheName: cacheName).path
        return pending.withLock { $0[path] != nil }
    }

    /// Runs `body` with the queue suspended, so that every write it queues waits (and coalesces)
    /// until it returns. For tests; `body` must not wait for the writer (``remove(cacheName:)``,
    /// ``waitUntilIdle()``), which would wait forever.
    package func holdingWrites<T>(_ body: () throws -> T) rethrows -> T {
        queue.suspend()
        defer { queue.resume() }
        return try body()
    }

    private func store(_ contents: SectionCacheContents, at url: URL) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent)-\(UUID().uuidString).tmp")
        do {
            let data = SectionCacheFile.encode(contents)
            guard Int64(data.count) <= maximumFileSize else {
                log.notice("section cache \(url.path) not written: \(data.count) bytes, more than the \(maximumFileSize) a cache may have")
                return
            }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A link in the cache directory's place would take the file elsewhere.
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.path)) == nil else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(directory.path) is a symbolic link; the cache is not written through it"])
            }
            removeAbandonedTemporaryFiles(in: directory, for: url)
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
            written.withLock { $0 += 1 }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            log.error("cannot write section cache \(url.path): \(error.localizedDescription)")
        }
    }

    /// Temporary files a process left when it stopped in the middle of a write. Files younger
    /// than a minute may belong to a write of another process, still running.
    private func removeAbandonedTemporaryFiles(in directory: URL, for url: URL) {
        let files = FileManager.default
        let prefix = ".\(url.lastPathComponent)-"
        for name in (try? files.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let path = directory.appendingPathComponent(name).path
            // Attributes of the entry itself, not of what a link points to; only files are removed.
            guard let attributes = try? files.attributesOfItem(atPath: path), attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let modified = attributes[.modificationDate] as? Date ?? .distantFuture
            if modified.timeIntervalSinceNow < -60 { try? files.removeItem(atPath: path) }
        }
    }
}
