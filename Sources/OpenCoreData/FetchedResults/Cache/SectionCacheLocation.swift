package import Foundation

/// Where section cache files live: `<root>/<escaped cache name>/sectionInfo`.
///
/// The default root is Core Data's layout under the XDG cache directory:
/// `$XDG_CACHE_HOME/<process name>/.CoreDataCaches/SectionInfoCaches`, with `~/.cache` when
/// `XDG_CACHE_HOME` is unset or not absolute. A process moves every cache with ``overrideRoot``.
/// A location is a value: code that must not depend on the process-wide setting (tests running
/// in parallel) makes its own with ``init(root:)`` and hands it to a ``SectionCacheWriter``.
package struct SectionCacheLocation: Sendable, Equatable {
    /// The directory holding one directory per cache name.
    package let root: URL

    package init(root: URL) {
        self.root = root
    }

    /// The root ``overrideRoot`` names, or the default one.
    package static var current: SectionCacheLocation {
        SectionCacheLocation(root: overrideRoot ?? defaultRoot())
    }

    private static let overrideState = Locked<URL?>(nil)

    /// A root used instead of the default for the rest of the process; nil restores the default.
    package static var overrideRoot: URL? {
        get { overrideState.withLock { $0 } }
        set { overrideState.withLock { $0 = newValue } }
    }

    /// The default root, read from the environment each time (it can change while running).
    package static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment,
                                    processName: String = ProcessInfo.processInfo.processName) -> URL {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent(escapedName(processName), isDirectory: true)
            .appendingPathComponent(".CoreDataCaches", isDirectory: true)
            .appendingPathComponent("SectionInfoCaches", isDirectory: true)
    }

    /// The directory of one cache, always a direct child of ``root``.
    package func directoryURL(forCacheName name: String) -> URL {
        root.appendingPathComponent(Self.escapedName(name), isDirectory: true)
    }

    /// The file of one cache.
    package func fileURL(forCacheName name: String) -> URL {
        directoryURL(forCacheName: name).appendingPathComponent(SectionCacheFiles.fileName, isDirectory: false)
    }

    /// Deletes one cache's files (its `sectionInfo`, and temporary files of writes that stopped
    /// midway), then its directory if nothing else is in it; with nil, the files of every cache
    /// directory in the root, then the root if nothing else is in it. Nothing else is deleted:
    /// not other files, not symbolic links or what they point to. Nothing to delete is no error.
    ///
    /// A ``SectionCacheWriter`` may still have a write queued for the cache; use its
    /// ``SectionCacheWriter/remove(cacheName:)`` to cancel it too.
    package func deleteCache(named name: String?) throws {
        if let name {
            try SectionCacheFiles.deleteCacheFiles(inDirectory: directoryURL(forCacheName: name))
        } else {
            try SectionCacheFiles.deleteEveryCache(inRoot: root)
        }
    }
}
