public import Foundation
public import OpenCoreData

/// One row of the cars table as a value, so it can leave the context's queue.
public struct CarRow: Sendable, Equatable, CustomStringConvertible {
    /// Where the row is in the table; the `list` number is its row plus 1.
    public let indexPath: IndexPath
    /// The car.
    public let objectID: ManagedObjectID
    /// The car's make, if set.
    public let make: String?
    /// The car's model, if set.
    public let model: String?
    /// The car's year.
    public let year: Int16
    /// When the car was added.
    public let dateCreated: Date

    /// The row of a car at an index path. Read it on the car's context queue.
    ///
    /// - Parameters:
    ///   - car: The car.
    ///   - indexPath: Its place in the table.
    public init(_ car: Car, at indexPath: IndexPath) {
        self.indexPath = indexPath
        objectID = car.objectID
        make = car.make
        model = car.model
        year = car.year
        dateCreated = car.dateCreated
    }

    /// What the seed's cell shows: `1927 Ford Model T`; `1908 (make and model not set)` for a new
    /// car.
    public var title: String { Self.title(year: year, make: make, model: model) }

    /// `3. 1927 Ford Model T`: the number `list` shows, then the title.
    public var description: String { "\(indexPath.row + 1). \(title)" }

    /// The title of a car with these values.
    static func title(year: Int16, make: String?, model: String?) -> String {
        let names = [make, model].compactMap { $0 }
        return names.isEmpty ? "\(year) (make and model not set)" : ([String(year)] + names).joined(separator: " ")
    }
}
