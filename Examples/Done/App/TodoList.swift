public import ExampleSupport
public import Foundation
public import OpenCoreData

/// The Done app's list screen without a screen: the items, oldest first, and the three things a
/// user does to them.
///
/// Every change is saved at once, and the list never touches its table itself: the table (the
/// controller's delegate) hears of each saved change from the controller, as in the seed app.
/// Methods run on the context's queue themselves, so call them from any thread, one at a time.
///
/// ```swift
/// let list = try TodoList(context: container.newBackgroundContext(), table: printer)
/// try list.add("milk")          // the table hears: insert at row 0
/// try list.toggle(number: 1)    // update at row 0; the item is done
/// try list.delete(number: 1)    // delete at row 0
/// ```
public final class TodoList {
    /// The controller and the table.
    public let fetchedList: FetchedList<Item>
    private let now: () -> Date

    /// The items, oldest first, by `createdAt`: the request the list's controller runs.
    public static func fetchRequest() -> FetchRequest<Item> {
        let request = Item.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "createdAt")]
        return request
    }

    /// A list showing the context's items, fetched at once.
    ///
    /// - Parameters:
    ///   - context: The items' context.
    ///   - table: The controller's delegate, told of every change; kept for the list's lifetime.
    ///   - now: The clock new items take `createdAt` from.
    /// - Throws: The fetch's errors.
    public init(context: ManagedObjectContext, table: TableStandIn, now: @escaping () -> Date = Date.init) throws {
        fetchedList = try FetchedList(request: Self.fetchRequest(), context: context, table: table)
        self.now = now
    }

    /// The controller whose rows the list shows; read it on the context's queue.
    public var controller: FetchedResultsController<Item> { fetchedList.controller }

    /// Every row, as the controller shows them.
    ///
    /// - Complexity: O(n); items are loaded in batches as they are read.
    public var rows: [TodoRow] {
        fetchedList.rows { TodoRow($0, index: $1.row) }
    }

    /// Adds an item, not done, after the others, and saves.
    ///
    /// - Parameter name: The item's text; spaces around it are dropped.
    /// - Returns: The new row.
    /// - Throws: ``TodoListError/emptyName`` for an empty text, or the save's error (the insert is
    ///   then undone).
    @discardableResult
    public func add(_ name: String) throws -> TodoRow {
        let text = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw TodoListError.emptyName }
        let context = fetchedList.context
        let (item, indexPath) = try fetchedList.saveChange {
            let item = Item(context: context)
            item.name = text
            item.createdAt = now()
            return item
        }
        return context.performAndWait { TodoRow(item, index: indexPath.row) }
    }

    /// Marks an item done, or not done again: the seed's done button.
    ///
    /// - Parameter number: The item's number in ``rows``, from 1.
    /// - Returns: The item's row after the change.
    /// - Throws: ``TodoListError/noSuchItem(number:count:)``, or the save's error.
    @discardableResult
    public func toggle(number: Int) throws -> TodoRow {
        let (item, indexPath) = try fetchedList.saveChange {
            let item = try self.item(number: number)
            item.done.toggle()
            return item
        }
        return fetchedList.context.performAndWait { TodoRow(item, index: indexPath.row) }
    }

    /// Deletes an item.
    ///
    /// - Parameter number: The item's number in ``rows``, from 1.
    /// - Returns: The item's row before it was deleted.
    /// - Throws: ``TodoListError/noSuchItem(number:count:)``, or the save's error.
    @discardableResult
    public func delete(number: Int) throws -> TodoRow {
        try fetchedList.context.performAndWait {
            let item = try self.item(number: number)
            let row = TodoRow(item, index: number - 1)
            try fetchedList.saveDeletion(of: item)
            return row
        }
    }

    /// The item numbered `number`, or the error a user who typed it should see. Call it on the
    /// context's queue.
    private func item(number: Int) throws -> Item {
        guard number > 0, let item = fetchedList.object(at: IndexPath(row: number - 1, section: 0)) else {
            throw TodoListError.noSuchItem(number: number, count: fetchedList.controller.rowCount)
        }
        return item
    }
}
