public import ExampleSupport
public import Foundation
public import OpenCoreData

/// The CarValet app's cars table without a screen: the cars, newest first, added, edited and
/// deleted the way the seed's table view controller does it once it is fixed.
///
/// The seed crashed with "Invalid update: invalid number of rows in section 0" because its
/// add and delete actions updated the table themselves *and* the controller's delegate updated it
/// again. Here the actions only change and save the cars; the table (the controller's delegate)
/// hears of each change once, from the controller. Methods run on the context's queue
/// themselves, so call them from any thread, one at a time.
///
/// ```swift
/// let valet = try CarValet(context: container.newBackgroundContext(), table: printer)
/// try valet.addCar()                                         // insert at [0, 0]: 1908
/// try valet.updateCar(at: IndexPath(row: 0, section: 0), make: "Ford", model: "Model T")
/// try valet.deleteCar(at: IndexPath(row: 0, section: 0))     // delete at [0, 0]
/// ```
public final class CarValet {
    /// The controller and the table.
    public let fetchedList: FetchedList<Car>
    private let now: () -> Date

    /// The cars, newest first, by `dateCreated`: the request the table's controller runs.
    public static func fetchRequest() -> FetchRequest<Car> {
        let request = Car.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "dateCreated", ascending: false)]
        return request
    }

    /// A cars table showing the context's cars, fetched at once.
    ///
    /// - Parameters:
    ///   - context: The cars' context.
    ///   - table: The controller's delegate, told of every change; kept for the table's lifetime.
    ///   - now: The clock new cars take `dateCreated` from.
    /// - Throws: The fetch's errors.
    public init(context: ManagedObjectContext, table: TableStandIn, now: @escaping () -> Date = Date.init) throws {
        fetchedList = try FetchedList(request: Self.fetchRequest(), context: context, table: table)
        self.now = now
    }

    /// The controller whose rows the table shows; read it on the context's queue.
    public var controller: FetchedResultsController<Car> { fetchedList.controller }

    /// Every row, as the controller shows them.
    ///
    /// - Complexity: O(n); cars are loaded in batches as they are read.
    public var rows: [CarRow] {
        fetchedList.rows { CarRow($0, at: $1) }
    }

    /// Adds a car and saves: the seed's + button, which adds a car at the top of the table.
    ///
    /// - Parameters:
    ///   - make: The make, or nil to leave it unset.
    ///   - model: The model, or nil to leave it unset.
    ///   - year: The year, or nil for the entity's default, 1908.
    /// - Returns: The new car's row.
    /// - Throws: The save's error (the insert is then undone).
    @discardableResult
    public func addCar(make: String? = nil, model: String? = nil, year: Int16? = nil) throws -> CarRow {
        let context = fetchedList.context
        let (car, indexPath) = try fetchedList.saveChange {
            let car = Car(context: context)
            car.dateCreated = now()
            Self.set(car, make: make, model: model, year: year)
            return car
        }
        return context.performAndWait { CarRow(car, at: indexPath) }
    }

    /// Changes a car's make, model or year and saves: the seed's car detail view. Given nothing
    /// to change, it saves nothing and the table hears nothing.
    ///
    /// - Parameters:
    ///   - indexPath: The car's row.
    ///   - make: A new make, or nil to keep the car's.
    ///   - model: A new model, or nil to keep the car's.
    ///   - year: A new year, or nil to keep the car's.
    /// - Returns: The car's row after the change.
    /// - Throws: ``CarValetError/noSuchCar(_:count:)``, or the save's error.
    @discardableResult
    public func updateCar(at indexPath: IndexPath, make: String? = nil, model: String? = nil, year: Int16? = nil) throws -> CarRow {
        let (car, newIndexPath) = try fetchedList.saveChange {
            let car = try self.car(at: indexPath)
            Self.set(car, make: make, model: model, year: year)
            return car
        }
        return fetchedList.context.performAndWait { CarRow(car, at: newIndexPath) }
    }

    /// Deletes a car and saves: the seed's swipe to delete.
    ///
    /// - Parameter indexPath: The car's row.
    /// - Returns: The car's row before it was deleted.
    /// - Throws: ``CarValetError/noSuchCar(_:count:)``, or the save's error.
    @discardableResult
    public func deleteCar(at indexPath: IndexPath) throws -> CarRow {
        try fetchedList.context.performAndWait {
            let car = try self.car(at: indexPath)
            let row = CarRow(car, at: indexPath)
            try fetchedList.saveDeletion(of: car)
            return row
        }
    }

    /// The car at an index path, or the error a user who chose it should see. Call it on the
    /// context's queue.
    private func car(at indexPath: IndexPath) throws -> Car {
        guard let car = fetchedList.object(at: indexPath) else {
            throw CarValetError.noSuchCar(indexPath, count: fetchedList.controller.rowCount)
        }
        return car
    }

    /// Sets the values given, leaving the others.
    private static func set(_ car: Car, make: String?, model: String?, year: Int16?) {
        if let make { car.make = make }
        if let model { car.model = model }
        if let year { car.year = year }
    }
}
