import Foundation

/// The async sequences of change batches and snapshots.
extension AnyFetchedResultsController {
    var hasSnapshotSubscribers: Bool { subscriberLock.withLock { !snapshotSubscribers.isEmpty } }

    func makeChangeStream() -> AsyncStream<FetchedResultsChanges> {
        let (stream, continuation) = AsyncStream<FetchedResultsChanges>.makeStream()
        let id = UUID()
        subscriberLock.withLock { changeSubscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.removeSubscriber(id)
        }
        managedObjectContext.performAndWait { updateTracking() }
        return stream
    }

    func makeSnapshotStream() -> AsyncStream<FetchedResultsSnapshot> {
        let (stream, continuation) = AsyncStream<FetchedResultsSnapshot>.makeStream()
        let id = UUID()
        subscriberLock.withLock { snapshotSubscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.removeSubscriber(id)
        }
        managedObjectContext.performAndWait { updateTracking() }
        return stream
    }

    func makeFailureStream() -> AsyncStream<FetchedResultsError> {
        let (stream, continuation) = AsyncStream<FetchedResultsError>.makeStream()
        let id = UUID()
        subscriberLock.withLock { failureSubscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.removeSubscriber(id)
        }
        return stream
    }

    private func removeSubscriber(_ id: UUID) {
        subscriberLock.withLock {
            changeSubscribers[id] = nil
            snapshotSubscribers[id] = nil
            failureSubscribers[id] = nil
        }
        managedObjectContext.perform { [weak self] in self?.updateTracking() }
    }

    func publish(_ changes: FetchedResultsChanges) {
        for continuation in subscriberLock.withLock({ Array(changeSubscribers.values) }) { continuation.yield(changes) }
    }

    func publish(_ failure: FetchedResultsError) {
        for continuation in subscriberLock.withLock({ Array(failureSubscribers.values) }) { continuation.yield(failure) }
    }

    func publish(_ snapshot: FetchedResultsSnapshot) {
        for continuation in subscriberLock.withLock({ Array(snapshotSubscribers.values) }) { continuation.yield(snapshot) }
    }
}
