import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a process of the library does after it commits to an SQLite store, so that the
/// ``StoreFileWatcher`` of every other process wakes once the commit can be read: it touches the
/// store's log (its modification time), or the store file when there is no log.
///
/// A commit's last write to the log comes before SQLite publishes the commit in its
/// shared-memory index, which it writes through a memory map that no file watch reports: a process
/// woken by that write alone may read too early and see nothing new. The touch comes after the
/// commit is visible. It creates no file and writes no byte.
struct CommitSignal: Sendable {
    private let logPath: String
    private let storePath: String

    init(storeURL: URL) {
        storePath = storeURL.path
        logPath = storeURL.path + "-wal"
    }

    /// Tells the watchers.
    func post() {
        if utimensat(AT_FDCWD, logPath, nil, 0) != 0 {
            _ = utimensat(AT_FDCWD, storePath, nil, 0)
        }
    }
}
