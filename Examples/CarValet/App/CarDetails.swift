import ArgumentParser
import Foundation

/// A car's make, model and year as given on the command line; what is not given is nil.
///
/// ```swift
/// CarDetails(make: "", model: "Leaf")  // make nil: a blank name is no name
/// ```
public struct CarDetails: Sendable, Equatable {
    /// The make, if given.
    public var make: String?
    /// The model, if given.
    public var model: String?
    /// The year, if given.
    public var year: Int16?

    /// Details with these values; a make or model of only spaces counts as not given, so that
    /// `add "" Leaf` adds a Leaf of no make.
    public init(make: String? = nil, model: String? = nil, year: Int16? = nil) {
        self.make = Self.name(make)
        self.model = Self.name(model)
        self.year = year
    }

    /// Reads a year from the command line, as an argument's transform.
    ///
    /// - Parameter argument: The word on the command line.
    /// - Returns: The year, from 1.
    /// - Throws: `ValidationError` when the word is not a whole number from 1 to 32767; the
    ///   argument parser reports it with status 64.
    public static func year(argument: String) throws -> Int16 {
        if let year = Int16(argument), year >= 1 { return year }
        var message = "the year must be a whole number from 1 to \(Int16.max), not \(argument.debugDescription)"
        if Int(argument) == nil {
            // Most often the second word of an unquoted name: `add Ford Model T 1927`.
            message += "; quote a make or model with spaces, as in `Ford \"Model T\" 1927`"
        }
        throw ValidationError(message)
    }

    private static func name(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
