import ExampleSupport
import Foundation
import OpenCoreData

/// The controller's delegate: it collects each batch's callbacks into a ``ChangeBatch``, numbers
/// it, encodes it once, and hands the same bytes to every subscriber.
///
/// Handing a message over never waits: each subscriber has a queue of its own, bounded, that its
/// page's connection drains. A subscriber whose queue is full (a page that stopped reading) is
/// told so, once, and removed: its connection closes, and the others never wait for it.
///
/// The callbacks run on the view context's queue, one batch at a time; subscribers are added
/// there too (with their snapshot), so each one gets its snapshot and then every later batch in
/// order. Unchecked Sendable because `pending` is touched only on that queue; the rest is behind
/// a lock, since subscribers leave from any thread (a pthread lock, which the thread sanitizer
/// sees, unlike `Synchronization.Mutex`).
final class ScoreboardBroadcaster: FetchedResultsControllerDelegate, @unchecked Sendable {
    /// A page's queue, and what to do when it is full.
    struct Subscriber {
        let continuation: AsyncStream<EncodedMessage>.Continuation
        let overflowed: @Sendable () -> Void
    }

    private struct State {
        var sequenceNumber = 0
        var subscribers: [UUID: Subscriber] = [:]
    }

    private let state = Locked(State())
    private var pending = ChangeBatch(sections: [], rows: [], indexTitles: [])

    /// The number of the last batch sent; a snapshot taken now includes it.
    var sequenceNumber: Int { state.withLock { $0.sequenceNumber } }

    /// Adds a subscriber and sends it `snapshot` first. Call on the view context's queue, with a
    /// snapshot taken there.
    func add(_ id: UUID, _ subscriber: Subscriber, snapshot table: Table) {
        state.withLock { state in
            state.subscribers[id] = subscriber
            send(.snapshot(seq: state.sequenceNumber, table: table), to: subscriber.continuation)
        }
    }

    /// Sends a snapshot to one subscriber. Call on the view context's queue, with a snapshot
    /// taken there, so that it falls between the same batches as the table it shows.
    func resend(to id: UUID, snapshot table: Table) {
        state.withLock { state in
            guard let subscriber = state.subscribers[id] else { return }
            send(.snapshot(seq: state.sequenceNumber, table: table), to: subscriber.continuation)
        }
    }

    func remove(_ id: UUID) {
        let subscriber = state.withLock { $0.subscribers.removeValue(forKey: id) }
        subscriber?.continuation.finish()
    }

    /// Ends every subscription.
    func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    private func send(_ message: ServerMessage, to continuation: AsyncStream<EncodedMessage>.Continuation) {
        // Our messages always encode; were one not to, the page would see a gap and ask for a snapshot.
        guard let encoded = try? EncodedMessage(message) else { return }
        continuation.yield(encoded)
    }

    // MARK: The controller's callbacks

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        pending = ChangeBatch(sections: [], rows: [], indexTitles: [])
    }

    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        pending.sections.append(.init(change: ChangeBatch.Change(type), index: sectionIndex, name: sectionInfo.name,
                                      title: sectionInfo.indexTitle))
    }

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let team = anObject as? Team else { return }
        // A deleted team's row may be gone from the store: its values cannot be read, nor are they needed.
        pending.rows.append(.init(change: ChangeBatch.Change(type), id: TeamRow.id(of: team.objectID),
                                  from: indexPath.map(RowPosition.init), to: newIndexPath.map(RowPosition.init),
                                  team: type == .delete ? nil : TeamRow(team)))
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        pending.indexTitles = controller.sectionIndexTitles
        let batch = pending
        let overflowed = state.withLock { state -> [Subscriber] in
            state.sequenceNumber += 1
            guard let encoded = try? EncodedMessage(.batch(seq: state.sequenceNumber, batch: batch)) else { return [] }
            var overflowed: [Subscriber] = []
            for (id, subscriber) in state.subscribers {
                if case .dropped = subscriber.continuation.yield(encoded) {
                    overflowed.append(subscriber)
                    state.subscribers[id] = nil
                }
            }
            return overflowed
        }
        // Outside the lock: closing a connection may end its feed, which removes it here.
        for subscriber in overflowed { subscriber.overflowed() }
    }
}

extension ChangeBatch.Change {
    init(_ type: FetchedResultsChangeType) {
        switch type {
        case .insert: self = .insert
        case .delete: self = .delete
        case .move: self = .move
        case .update: self = .update
        }
    }
}

extension RowPosition {
    init(_ indexPath: IndexPath) {
        self.init(section: indexPath.section, row: indexPath.row)
    }
}
