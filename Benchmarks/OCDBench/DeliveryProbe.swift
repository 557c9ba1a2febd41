import Foundation
import OpenCoreData

/// A delegate that notes when a batch's last callback returns, as a list would after
/// `endUpdates()`, and wakes the waiting benchmark.
final class DeliveryProbe: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Written on the controller's queue, read after `signal`: the semaphore orders the accesses.
    private(set) var deliveredAt: UInt64 = 0
    private(set) var objectChanges = 0
    private let delivered = DispatchSemaphore(value: 0)

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        objectChanges += 1
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        deliveredAt = now()
        delivered.signal()
    }

    /// Waits for the next batch; false if none came within a minute.
    func waitForDelivery() -> Bool {
        delivered.wait(timeout: .now() + 60) == .success
    }
}

/// Notes when the controller's async sequence hands a batch to its consumer.
final class StreamProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var lastAt: UInt64 = 0
    private let delivered = DispatchSemaphore(value: 0)
    private var task: Task<Void, Never>?

    init(_ changes: AsyncStream<FetchedResultsChanges>) {
        task = Task.detached { [weak self] in
            for await _ in changes {
                guard let self else { return }
                self.lock.withLock { self.lastAt = now() }
                self.delivered.signal()
            }
        }
    }

    func waitForDelivery() -> UInt64? {
        guard delivered.wait(timeout: .now() + 60) == .success else { return nil }
        return lock.withLock { lastAt }
    }

    deinit { task?.cancel() }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
}
