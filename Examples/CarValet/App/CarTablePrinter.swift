public import ExampleSupport
public import OpenCoreData

/// The CarValet tool's table: it prints a line for each change the controller reports after a
/// save, where the seed's table view inserted, deleted or reloaded a row.
///
/// `+ 1. 1908 (make and model not set)` for a car added at the top, `- 3. 1927 Ford Model T` for
/// a deleted car (at its old row), `~ 2. 1965 Ford Mustang` for an edited one.
///
/// ```swift
/// let printer = CarTablePrinter { print($0) }
/// let valet = try CarValet(context: context, table: printer)
/// try valet.addCar()  // prints "+ 1. 1908 (make and model not set)"
/// ```
public final class CarTablePrinter: TableStandIn {
    private let write: (String) -> Void

    /// A printer that hands each line to `write`.
    ///
    /// - Parameter write: Receives one line per changed row, on the context's queue.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Prints the line for one changed row, numbered as `list` numbers it after the save.
    override public func rowDidChange(_ object: ManagedObject, _ change: FetchedResultsChanges.ObjectChange) {
        guard let car = object as? Car, let row = (change.newIndexPath ?? change.indexPath)?.row else { return }
        let sign = switch change.type {
        case .insert: "+"
        case .delete: "-"
        case .move, .update: "~"
        }
        write("\(sign) \(row + 1). \(CarRow.title(year: car.year, make: car.make, model: car.model))")
    }
}
