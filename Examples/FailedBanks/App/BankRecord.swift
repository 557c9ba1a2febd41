public import Foundation

/// One bank as an import file lists it, before it becomes a `FailedBankInfo` and its
/// `FailedBankDetails`.
public struct BankRecord: Sendable, Equatable {
    /// The bank's name.
    public var name: String
    /// The city of its head office.
    public var city: String
    /// The state's two-letter code.
    public var state: String
    /// The head office's ZIP code.
    public var zip: Int32
    /// The day it closed.
    public var closeDate: Date
    /// The day its record was last updated.
    public var updatedDate: Date

    /// A record with every field given.
    public init(name: String, city: String, state: String, zip: Int32, closeDate: Date, updatedDate: Date) {
        self.name = name
        self.city = city
        self.state = state
        self.zip = zip
        self.closeDate = closeDate
        self.updatedDate = updatedDate
    }
}
