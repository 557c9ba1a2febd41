import Foundation

/// How an SQLite store's commits by other processes wake this one: a ``StoreFileWatcher`` on the
/// store's files, and the ``CommitSignal`` this process posts after its own commits.
final class SQLiteCommitWatch: StoreCommitWatch, @unchecked Sendable {
    private let storeURL: URL
    private let watcher: StoreFileWatcher
    // Guarded by `lock` (hence `@unchecked Sendable`): opened on the first commit of the process.
    private let lock = NSLock()
    private var signal: CommitSignal?

    init(storeURL: URL, wake: @escaping @Sendable () -> Void) {
        self.storeURL = storeURL
        watcher = StoreFileWatcher(storeURL: storeURL, onWrite: wake)
    }

    var mayWakeBeforeCommitIsVisible: Bool { true }

    func committedHere() {
        lock.withLock {
            if signal == nil { signal = CommitSignal(storeURL: storeURL) }
            signal?.post()
        }
    }

    func stop() {
        watcher.stop()
    }
}

extension SQLiteStoreBackend: StoreCommitWatching {
    func watchCommits(_ wake: @escaping @Sendable () -> Void) -> (any StoreCommitWatch)? {
        guard url.isFileURL else { return nil }
        return SQLiteCommitWatch(storeURL: url, wake: wake)
    }
}
