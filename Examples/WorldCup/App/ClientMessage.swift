/// A message from a page to the server.
///
/// ```json
/// {"type": "win", "team": "p12"}
/// {"type": "add", "name": "Wenderland", "zone": "Oceania"}
/// {"type": "snapshot"}
/// ```
public enum ClientMessage: Sendable, Equatable, Decodable {
    /// Add a win to a team, named by ``TeamRow/id`` or by its object ID's URI.
    case win(team: String)
    /// Add a team.
    case add(NewTeam)
    /// Send the whole table again (the page missed a batch).
    case snapshot

    private enum CodingKeys: String, CodingKey { case type, team }

    /// Reads a message from its `type` and, for `win` and `add`, the fields that go with it.
    ///
    /// - Throws: ``WorldCupError`` of kind ``WorldCupError/Kind/malformedRequest`` for an unknown
    ///   `type`, or of kind ``WorldCupError/Kind/invalidInput`` for a team to add that
    ///   ``NewTeam/init(name:zone:)`` refuses; `DecodingError` for a missing or mistyped field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "win": self = .win(team: try container.decode(String.self, forKey: .team))
        case "add": self = .add(try NewTeam(from: decoder))
        case "snapshot": self = .snapshot
        case let other:
            throw WorldCupError(.malformedRequest, "unknown message type \(other.debugDescription); expected win, add or snapshot")
        }
    }
}
