import Synchronization

/// A value guarded by a mutex, for the few pieces of state shared across queues
/// (the coordinator's context list, the in-memory store's tables, name caches).
final class Locked<Value: ~Copyable>: Sendable where Value: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
}
