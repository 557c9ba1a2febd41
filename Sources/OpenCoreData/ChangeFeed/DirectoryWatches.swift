#if canImport(Glibc)
import Dispatch
import Foundation
import Glibc

/// The process's one inotify instance, watching the directories of the SQLite stores it has
/// open, and calling back the ``StoreFileWatcher`` of each store when one of its files changes.
///
/// One instance for the process, not one per store: the kernel allows a user few instances (128
/// by default) and many watches, and a program (a test suite, a server) may open many stores.
final class DirectoryWatches: @unchecked Sendable {
    static let shared = DirectoryWatches()

    private struct Watcher {
        let watch: Int32
        let names: Set<String>
        let onChange: @Sendable () -> Void
    }

    private let queue = DispatchQueue(label: "OpenCoreData.directoryWatches")
    private let descriptor: Int32
    private var source: (any DispatchSourceRead)?
    /// By registration number; touched on `queue` only.
    private var watchers: [Int: Watcher] = [:]
    private var nextRegistration = 0

    private init() {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            Log.store.error("cannot watch stores for other processes' commits: inotify_init1 failed (errno \(errno))")
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in dispatchEvents() }
        source.resume()
        self.source = source
    }

    /// Calls `onChange` whenever a file of `directory` named in `names` is written, touched,
    /// created or removed; returns the registration to remove, or nil when the directory cannot
    /// be watched (the failure is logged).
    func add(_ directory: String, names: Set<String>, onChange: @escaping @Sendable () -> Void) -> Int? {
        queue.sync {
            guard descriptor >= 0 else { return nil }
            let mask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
            let watch = inotify_add_watch(descriptor, directory, mask)
            guard watch >= 0 else {
                Log.store.error("cannot watch \(directory) for other processes' commits: inotify_add_watch failed (errno \(errno))")
                return nil
            }
            nextRegistration += 1
            watchers[nextRegistration] = Watcher(watch: watch, names: names, onChange: onChange)
            return nextRegistration
        }
    }

    /// Stops a registration; the directory's watch goes with its last one.
    func remove(_ registration: Int) {
        queue.sync {
            guard let removed = watchers.removeValue(forKey: registration) else { return }
            if !watchers.values.contains(where: { $0.watch == removed.watch }) {
                inotify_rm_watch(descriptor, removed.watch)
            }
        }
    }

    /// Reads every pending event and calls each watcher whose files changed, once.
    private func dispatchEvents() {
        var changed = Set<Int>()
        let capacity = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count = read(descriptor, buffer, capacity)
            guard count > 0 else { break }
            var offset = 0
            while offset + headerSize <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                if nameLength > 0, offset + headerSize + nameLength <= count {
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset + headerSize, count: nameLength)
                    let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    for (registration, watcher) in watchers where watcher.watch == event.wd && watcher.names.contains(name) {
                        changed.insert(registration)
                    }
                }
                offset += headerSize + nameLength
            }
        }
        for registration in changed { watchers[registration]?.onChange() }
    }
}
#endif
