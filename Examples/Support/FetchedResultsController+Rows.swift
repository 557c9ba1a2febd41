import Foundation
public import OpenCoreData

extension FetchedResultsController {
    /// The number of rows of an unsectioned controller: its one section's objects.
    ///
    /// Read it on the context's queue.
    public var rowCount: Int { sections?.first?.numberOfObjects ?? 0 }

    /// The object at a row of an unsectioned controller, or nil out of range where
    /// `object(at:)` would stop the program: for row numbers a user typed.
    ///
    /// Read it on the context's queue.
    ///
    /// ```swift
    /// guard let item = controller.object(atRow: number - 1) else { throw TodoListError.noSuchItem(...) }
    /// ```
    ///
    /// - Parameter row: The row, from 0.
    /// - Returns: The object, or nil when there is no such row.
    public func object(atRow row: Int) -> ResultType? {
        (0..<rowCount).contains(row) ? object(at: IndexPath(row: row, section: 0)) : nil
    }
}
