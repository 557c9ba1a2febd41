import Foundation

/// The process's section caches: one writer per cache directory, shared by every controller.
package enum SectionCaches {
    private static let writers = Locked<[URL: SectionCacheWriter]>([:])

    /// The writer for the current cache directory.
    package static func writer() -> SectionCacheWriter {
        let location = SectionCacheLocation.current
        return writers.withLock { writers in
            if let writer = writers[location.root] { return writer }
            if writers.isEmpty {
                // A command-line program that saves and exits at once would otherwise lose the
                // cache of its last save, still queued.
                atexit { SectionCaches.finishWrites() }
            }
            let writer = SectionCacheWriter(location: location)
            writers[location.root] = writer
            return writer
        }
    }

    /// Waits for every queued cache write.
    package static func finishWrites() {
        for writer in writers.withLock({ Array($0.values) }) { writer.waitUntilIdle() }
    }
}
