public import Foundation

/// A bank as a row of the list shows it.
public struct BankRow: Sendable, Equatable, CustomStringConvertible {
    /// The bank's name.
    public var name: String
    /// The city of its head office.
    public var city: String
    /// The state's two-letter code.
    public var state: String
    /// The day it closed; nil for a bank without details.
    public var closeDate: Date?

    /// The row of a bank; reads its details.
    public init(_ bank: FailedBankInfo) {
        name = bank.name
        city = bank.city
        state = bank.state
        closeDate = bank.details?.closeDate
    }

    /// `Summit Home Thrift — Denver, CO — closed 2011-05-06`.
    public var description: String {
        "\(name) — \(city), \(state) — closed \(closeDate.map(Self.day) ?? "(unknown)")"
    }

    /// A day as `yyyy-MM-dd`, in UTC like the import's dates.
    public static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
