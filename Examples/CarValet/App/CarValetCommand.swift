public import ExampleSupport

/// One command of the CarValet tool, as the argument parser read it.
///
/// ```swift
/// try CarValetTool.perform(.add(CarDetails(make: "Ford", model: "Model T", year: 1927)), in: session)
/// ```
public enum CarValetCommand: Sendable, Equatable {
    /// Add a car with these details; what is not given stays unset (the year: 1908).
    case add(CarDetails)
    /// Print the cars, newest first.
    case list
    /// Change a car's details; what is not given stays as it is.
    case edit(RowNumber, CarDetails)
    /// Delete a car.
    case delete(RowNumber)
}
