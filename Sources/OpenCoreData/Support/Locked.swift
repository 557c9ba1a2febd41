import Foundation

/// A value guarded by a lock, for the few pieces of state shared across queues (the
/// coordinator's context list, the in-memory store's tables, name caches).
///
/// It uses `NSLock` rather than Synchronization's `Mutex`: on Linux ThreadSanitizer does not see
/// `Mutex`'s futex-based locking and reports every access it guards as a race, which would hide
/// real ones.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: consuming sending Value) {
        self.value = value
    }

    func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
