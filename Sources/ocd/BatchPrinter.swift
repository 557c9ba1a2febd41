import Foundation
import OpenCoreData

/// The watched controller's delegate: collects each batch's changes as the controller reports
/// them, and prints the batch when it is complete, on the context's queue, reading the changed
/// objects' values as they are in that batch.
final class BatchPrinter: FetchedResultsControllerDelegate {
    private let json: Bool
    /// The watched entity's value names, in the order text output shows them.
    private let keys: [String]
    private var sectionChanges: [WatchMessage.SectionChange] = []
    private var objectChanges: [(change: WatchMessage.ObjectChange, object: ManagedObject?)] = []

    init(json: Bool, keys: [String]) {
        self.json = json
        self.keys = keys
    }

    /// Prints the controller's contents once it has fetched: the `ready` line, or a summary.
    func printReady(_ controller: AnyFetchedResultsController, entity: String, token: PersistentHistoryToken?) throws(ToolError) {
        let sections = (controller.sections ?? []).map { section in
            WatchMessage.Section(name: section.name, objects: (section.objects ?? []).compactMap { object in
                (object as? ManagedObject).map { ObjectValues.id($0.objectID) }
            })
        }
        if json {
            Output.line(try Output.json(WatchMessage(event: "ready", sections: sections, token: token?.description)))
            return
        }
        let total = sections.reduce(0) { $0 + $1.objects.count }
        Output.line("watching \(entity): \(Output.count(total, "object")) in \(Output.count(sections.count, "section")); interrupt (Ctrl-C) to stop")
        for (index, section) in sections.enumerated() where controller.sectionNameKeyPath != nil {
            Output.line("  section \(index) \"\(section.name)\": \(Output.count(section.objects.count, "object"))")
        }
    }

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        sectionChanges = []
        objectChanges = []
    }

    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        sectionChanges.append(WatchMessage.SectionChange(type: "\(type)", sectionIndex: sectionIndex, name: sectionInfo.name))
    }

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let object = anObject as? ManagedObject
        let id = object.map { ObjectValues.id($0.objectID) } ?? (anObject as? ManagedObjectID).map(ObjectValues.id) ?? "\(anObject)"
        let change = WatchMessage.ObjectChange(type: "\(type)", object: id, indexPath: indexPath.map(Self.pair),
                                               newIndexPath: newIndexPath.map(Self.pair), values: nil)
        objectChanges.append((change, type == .delete ? nil : object))
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        let changes = objectChanges.map { change, object in
            var change = change
            change.values = object.map(ObjectValues.values)
            return change
        }
        if json {
            let message = WatchMessage(event: "changes", sectionChanges: sectionChanges, objectChanges: changes)
            do {
                Output.line(try Output.json(message))
            } catch {
                Output.error(error.message)
            }
            return
        }
        Output.line("changes")
        let rows = sectionChanges.map { ["section \($0.type)", "\($0.sectionIndex)", "\"\($0.name)\""] }
            + changes.map { change in
                [change.type, Self.place(change), ObjectValues.shortID(change.object),
                 change.values.map { ObjectValues.text($0, keys: keys) } ?? ""]
            }
        Output.table(rows, indent: "  ").forEach(Output.line)
    }

    func controller(_ controller: AnyFetchedResultsController, didFailWith error: FetchedResultsError) {
        if json, let line = try? Output.json(WatchMessage(event: "failure", message: error.message)) {
            Output.line(line)
        } else {
            Output.error("the list could not follow a change, and catches up: \(error.message)")
        }
    }

    private static func pair(_ indexPath: IndexPath) -> [Int] { [indexPath[0], indexPath[1]] }

    /// `[0,1]` where an insert lands or a delete was, `[0,0] → [1,0]` for a move (and an update
    /// whose row shifted).
    private static func place(_ change: WatchMessage.ObjectChange) -> String {
        let paths = [change.indexPath, change.newIndexPath].compactMap { $0 }.map { "[\($0[0]),\($0[1])]" }
        return paths.count == 2 && paths[0] == paths[1] ? paths[0] : paths.joined(separator: " → ")
    }
}
