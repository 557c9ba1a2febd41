public import ExampleSupport
public import OpenCoreData

/// The Done tool's table: it prints a line for each change the controller reports after a save,
/// where the seed's table view animated a row.
///
/// `+ milk` for an added item, `- milk` for a deleted one, `✓ milk` for an item marked done and
/// `○ milk` for one marked not done again.
///
/// ```swift
/// let printer = TodoChangePrinter { print($0) }
/// let list = try TodoList(context: context, table: printer)
/// try list.add("milk")  // prints "+ milk"
/// ```
public final class TodoChangePrinter: TableStandIn {
    private let write: (String) -> Void

    /// A printer that hands each line to `write`.
    ///
    /// - Parameter write: Receives one line per changed row, on the context's queue.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Prints the line for one changed row.
    override public func rowDidChange(_ object: ManagedObject, _ change: FetchedResultsChanges.ObjectChange) {
        guard let item = object as? Item else { return }
        write("\(Self.mark(change.type, done: item.done)) \(item.name)")
    }

    /// The sign of a change; an updated item is shown by its new state, the only thing that changes.
    private static func mark(_ type: FetchedResultsChangeType, done: Bool) -> String {
        switch type {
        case .insert: "+"
        case .delete: "-"
        case .move, .update: done ? "✓" : "○"
        }
    }
}
