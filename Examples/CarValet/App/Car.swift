public import Foundation
public import OpenCoreData

/// A car in the valet's list: the CarValet app's one entity (the seed's `CDCar`).
///
/// A new car has no make or model until they are edited, a year of 1908 (the entity's default,
/// the year of the Model T) and the date it was added, which orders the list newest first.
///
/// ```swift
/// let car = Car(context: context)
/// car.dateCreated = Date()
/// car.year  // 1908
/// ```
public final class Car: ManagedObject {
    /// The maker, such as "Ford"; nil until set.
    @Managed public var make: String?
    /// The model, such as "Model T"; nil until set.
    @Managed public var model: String?
    /// The model year; an integer 16 attribute, as in the seed.
    @Managed public var year: Int16 = 1908
    /// When the car was added; the list shows the newest first.
    @Managed public var dateCreated: Date
}
