import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls back when the files of an SQLite store are written or touched, by any process: how a
/// commit of another process wakes this one.
///
/// A commit writes the store's write-ahead log (or, in rollback mode, the database file), and the
/// kernel reports changes to files to whoever watches them: inotify on Linux, a vnode source on
/// Apple platforms. An idle process sleeps in the kernel (no polling, no timer, no thread of its
/// own: the descriptor is one more source of a dispatch queue), and the callback only wakes the
/// ``StoreChangeFeed``, which reads the store's generation to learn whether anything committed.
/// Writes of this process wake it too; the feed finds its cursors current and does nothing. A
/// local socket between processes would need every writer (the `sqlite3` shell included) to
/// speak it; the files are written whoever writes.
final class StoreFileWatcher: @unchecked Sendable {
    #if canImport(Glibc)
    private let registration: Int?
    #else
    private let queue = DispatchQueue(label: "OpenCoreData.storeFileWatcher")
    private var sources: [any DispatchSourceProtocol] = []
    #endif

    /// Starts watching the store at `storeURL`; `onWrite` runs on a queue of the watcher's.
    /// Watching is best effort: when the system refuses it, commits of other processes are seen
    /// at the next commit of this process instead, and the failure is logged.
    init(storeURL: URL, onWrite: @escaping @Sendable () -> Void) {
        #if canImport(Glibc)
        // The log is created and removed as connections come and go: the directory is watched,
        // which sees every file it holds.
        let names = Set(["", "-wal", "-journal"].map { storeURL.lastPathComponent + $0 })
        registration = DirectoryWatches.shared.add(storeURL.deletingLastPathComponent().path, names: names, onChange: onWrite)
        #else
        for suffix in ["", "-wal"] {
            watchFile(at: storeURL.path + suffix, onWrite: onWrite)
        }
        #endif
    }

    /// Stops watching; no callback runs afterwards.
    func stop() {
        #if canImport(Glibc)
        if let registration { DirectoryWatches.shared.remove(registration) }
        #else
        queue.sync {
            for source in sources { source.cancel() }
            sources = []
        }
        #endif
    }

    #if !canImport(Glibc)
    private func watchFile(at path: String, onWrite: @escaping @Sendable () -> Void) {
        let descriptor = open(path, O_EVTONLY)
        guard descriptor >= 0 else { return }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor, eventMask: [.write, .extend, .attrib], queue: queue)
        source.setEventHandler(handler: onWrite)
        source.setCancelHandler { close(descriptor) }
        source.resume()
        sources.append(source)
    }
    #endif
}
