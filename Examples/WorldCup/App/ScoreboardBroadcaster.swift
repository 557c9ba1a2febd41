import ExampleSupport
import Foundation
import OpenCoreData

/// The controller's delegate: it collects each batch's callbacks into a ``ChangeBatch``, numbers
/// it, and sends it to every subscriber.
///
/// The callbacks run on the view context's queue, one batch at a time; subscribers are added
/// there too (with their snapshot), so each one gets its snapshot and then every later batch in
/// order. Unchecked Sendable because `pending` is touched only on that queue; the rest is behind
/// a lock, since subscribers leave from any thread (a pthread lock, which the thread sanitizer
/// sees, unlike `Synchronization.Mutex`).
final class ScoreboardBroadcaster: FetchedResultsControllerDelegate, @unchecked Sendable {
    private struct State {
        var sequenceNumber = 0
        var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]
    }

    private let state = Locked(State())
    private var pending = ChangeBatch(sections: [], rows: [], indexTitles: [])

    /// The number of the last batch sent; a snapshot taken now includes it.
    var sequenceNumber: Int { state.withLock { $0.sequenceNumber } }

    /// Adds a subscriber and sends it `snapshot` first. Call on the view context's queue, with a
    /// snapshot taken there.
    func add(_ id: UUID, _ continuation: AsyncStream<String>.Continuation, snapshot table: Table) {
        state.withLock { state in
            state.subscribers[id] = continuation
            send(.snapshot(seq: state.sequenceNumber, table: table), to: continuation)
        }
    }

    /// Sends a snapshot to one subscriber. Call on the view context's queue, with a snapshot
    /// taken there, so that it falls between the same batches as the table it shows.
    func resend(to id: UUID, snapshot table: Table) {
        state.withLock { state in
            guard let continuation = state.subscribers[id] else { return }
            send(.snapshot(seq: state.sequenceNumber, table: table), to: continuation)
        }
    }

    func remove(_ id: UUID) {
        let continuation = state.withLock { $0.subscribers.removeValue(forKey: id) }
        continuation?.finish()
    }

    /// Ends every subscription.
    func finishAll() {
        let continuations = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    private func send(_ message: ServerMessage, to continuation: AsyncStream<String>.Continuation) {
        // Our messages always encode; were one not to, the page would see a gap and ask for a snapshot.
        guard let text = try? WorldCupJSON.text(message) else { return }
        continuation.yield(text)
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
        state.withLock { state in
            state.sequenceNumber += 1
            let message = ServerMessage.batch(seq: state.sequenceNumber, batch: batch)
            guard let text = try? WorldCupJSON.text(message) else { return }
            for continuation in state.subscribers.values { continuation.yield(text) }
        }
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
