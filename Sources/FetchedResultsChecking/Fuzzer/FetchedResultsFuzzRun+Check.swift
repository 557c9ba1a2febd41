import Foundation
import OpenCoreData

// The check after each batch: the recorded classic batches, the last snapshot, the differences
// and the controllers' contents must all give the rows of a fresh fetch.

extension FetchedResultsFuzzRun {
    /// The rows a fresh fetch gives, in sections named as the controller names them.
    func freshRows() throws -> SimulatedList<ManagedObjectID> {
        var list = SimulatedList<ManagedObjectID>()
        for card in try view.fetch(try makeRequest()) {
            let name = configuration.sectionKeyPath == nil ? "" : card.deck ?? ""
            if list.sections.last?.name == name {
                list.sections[list.sections.count - 1].items.append(card.objectID)
            } else {
                list.sections.append(.init(name, [card.objectID]))
            }
        }
        if configuration.sectionKeyPath == nil, list.sections.isEmpty { list.sections = [.init("", [])] }
        return list
    }

    /// What differs from a fresh fetch, or nil when everything matches; counts the changes.
    func check(_ report: inout FuzzReport) -> String? {
        do {
            let expected = try freshRows()
            if let failure = try checkClassicBatches(expected: expected, report: &report) { return failure }
            if let snapshot = snapshots.snapshots.last, try SimulatedList(snapshot: snapshot) != expected {
                return "snapshot\n snapshot: \(try SimulatedList(snapshot: snapshot))\n expected: \(expected)"
            }
            if configuration.sectionKeyPath == nil {
                var ids = rows.sections.first?.items ?? []
                for difference in differences.differences { ids = try ids.applyingChecked(difference) }
                if ids != expected.sections.first?.items ?? [] {
                    return "difference\n result:   \(ids)\n expected: \(expected)"
                }
            }
            for controller in controllers {
                let contents = SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
                if contents != expected { return "controller contents\n contents: \(contents)\n expected: \(expected)" }
            }
            rows = expected
            // Only the batches since the last check are needed; a long run would otherwise keep
            // every callback and snapshot it ever saw.
            classic.batches = []
            classic.calls = []
            snapshots.snapshots = []
            differences.differences = []
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The classic batches since the last check, applied one after another with UIKit's rules
    /// (the last one checked against the fresh fetch by the simulator), and then compared.
    private func checkClassicBatches(expected: SimulatedList<ManagedObjectID>, report: inout FuzzReport) throws -> String? {
        var current = rows
        for (number, recorded) in classic.batches.enumerated() {
            current = current.map(currentID(of:))
            let batch = FetchedResultsChanges(sectionChanges: recorded.sectionChanges, objectChanges: recorded.objectChanges.map {
                .init(type: $0.type, objectID: currentID(of: $0.objectID), indexPath: $0.indexPath, newIndexPath: $0.newIndexPath)
            })
            let isLast = number == classic.batches.count - 1
            let next = isLast ? try current.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true, expected: expected)
                : try current.applying(try ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true))
            if let needless = try needlessMoveInPlace(in: batch, from: current, to: next) {
                return "a move to the same index path where an update would do: \(needless)\n batch: \(batch)"
            }
            current = next
            for change in batch.sectionChanges { report.sectionChanges[change.type, default: 0] += 1 }
            report.movesInPlace += batch.objectChanges.filter { $0.type == .move && $0.indexPath == $0.newIndexPath }.count
            for change in batch.objectChanges { report.objectChanges[change.type, default: 0] += 1 }
        }
        current = current.map(currentID(of:))
        guard current == expected else {
            return "classic callbacks\n old:      \(rows)\n result:   \(current)\n expected: \(expected)\n batches:  \(classic.batches)"
        }
        return nil
    }

    /// A move to its own index path must be needed: reported as an update in place instead (as
    /// Core Data does), the batch must give a wrong result or be rejected.
    private func needlessMoveInPlace(in batch: FetchedResultsChanges, from old: SimulatedList<ManagedObjectID>,
                                     to new: SimulatedList<ManagedObjectID>) throws -> FetchedResultsChanges.ObjectChange? {
        for (index, change) in batch.objectChanges.enumerated() where change.type == .move && change.indexPath == change.newIndexPath {
            var lowered = batch
            lowered.objectChanges[index] = .init(type: .update, objectID: change.objectID, indexPath: change.indexPath, newIndexPath: nil)
            if let result = try? old.applying(try ListBatch(lowered, mapping: .deleteAndInsert, allowingMovesInPlace: true)), result == new {
                return change
            }
        }
        return nil
    }

    /// The object's ID now: an object inserted in the view context has a permanent ID once saved.
    private func currentID(of id: ManagedObjectID) -> ManagedObjectID {
        guard id.isTemporaryID, let card = insertedInView[id] else { return id }
        return card.objectID
    }
}
