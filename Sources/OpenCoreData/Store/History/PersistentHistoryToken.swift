import Foundation

/// A position in a store's persistent history: Core Data's `NSPersistentHistoryToken`. It marks
/// the point just after one committed transaction; fetching history after it returns every
/// transaction committed later.
///
/// A token is opaque, `Sendable` and `Codable` (it encodes as one short string, so it can be
/// kept in a file, a database or a command line), and, unlike Core Data's, comparable: tokens of
/// one store compare in commit order, whichever process or coordinator committed.
///
/// ```swift
/// let token = try coordinator.currentPersistentHistoryToken(fromStores: nil)
/// UserDefaults.standard.set(try JSONEncoder().encode(token), forKey: "lastHistoryToken")
/// ```
///
/// Tokens of different stores compare by store first, which says nothing about when they were
/// made; fetching one store's history after another store's token throws
/// ``PersistentHistoryError/expiredToken``.
public struct PersistentHistoryToken: Hashable, Comparable, Sendable, Codable, LosslessStringConvertible {
    /// The identifier of the store whose history this is.
    package let storeIdentifier: String
    /// The number of the transaction the token follows: the store generation that transaction
    /// committed (every commit, by anyone, advances it by one), 0 before the first commit.
    package let transactionNumber: Int64

    package init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    /// The token's text form, `STORE-UUID:NUMBER`; ``init(_:)`` reads it back.
    public var description: String { "\(storeIdentifier):\(transactionNumber)" }

    /// Reads a token from its ``description``, or returns nil if the text is not one.
    public init?(_ description: String) {
        guard let colon = description.lastIndex(of: ":"), colon != description.startIndex,
              let number = Int64(description[description.index(after: colon)...]), number >= 0 else { return nil }
        self.init(storeIdentifier: String(description[..<colon]), transactionNumber: number)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let token = PersistentHistoryToken(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a persistent history token")
        }
        self = token
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
