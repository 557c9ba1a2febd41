import Foundation

/// A team to add, checked: a name and a zone, each trimmed, not empty, not too long and free of
/// control characters.
///
/// ```swift
/// let team = try NewTeam(name: "  Wenderland ", zone: "Oceania")   // name "Wenderland"
/// ```
public struct NewTeam: Sendable, Equatable, Decodable {
    /// The longest name accepted, in characters.
    public static let maxNameLength = 60
    /// The longest zone accepted, in characters.
    public static let maxZoneLength = 40

    /// The trimmed name.
    public let name: String
    /// The trimmed zone.
    public let zone: String

    /// Checks and trims a name and a zone.
    ///
    /// - Throws: ``WorldCupError`` of kind ``WorldCupError/Kind/invalidInput`` saying which field
    ///   is wrong and why.
    public init(name: String, zone: String) throws(WorldCupError) {
        self.name = try Self.checked(name, field: "name", maxLength: Self.maxNameLength)
        self.zone = try Self.checked(zone, field: "zone", maxLength: Self.maxZoneLength)
    }

    private enum CodingKeys: String, CodingKey { case name, zone }

    /// Decodes `{"name": …, "zone": …}` and checks it as ``init(name:zone:)`` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(name: try container.decode(String.self, forKey: .name),
                      zone: try container.decode(String.self, forKey: .zone))
    }

    private static func checked(_ text: String, field: String, maxLength: Int) throws(WorldCupError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw WorldCupError(.invalidInput, "the team's \(field) is empty")
        }
        guard trimmed.count <= maxLength else {
            throw WorldCupError(.invalidInput, "the team's \(field) has \(trimmed.count) characters; at most \(maxLength) are allowed")
        }
        // Control characters would print as nothing, or break lines, in every list that shows the team.
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw WorldCupError(.invalidInput, "the team's \(field) contains control characters")
        }
        return trimmed
    }
}
