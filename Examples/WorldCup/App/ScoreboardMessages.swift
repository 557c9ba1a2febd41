// The JSON the server and the page exchange. The server sends a snapshot when a page connects
// (or asks for one), then one batch per save, numbered so that a page can tell it missed one.

/// A team as the page shows it.
public struct TeamRow: Codable, Sendable, Hashable {
    /// The team's ID: the last component of its object ID's URI, such as `p12`.
    public var id: String
    /// The team's name.
    public var name: String
    /// Its wins.
    public var wins: Int

    /// A row with these values.
    public init(id: String, name: String, wins: Int) {
        self.id = id
        self.name = name
        self.wins = wins
    }
}

/// A section of the table: a qualifying zone and its teams, in order.
public struct TableSection: Codable, Sendable, Equatable {
    /// The zone.
    public var name: String
    /// The section's index title (the zone's first letter), or nil.
    public var title: String?
    /// The zone's teams, most wins first.
    public var teams: [TeamRow]

    /// A section with these teams.
    public init(name: String, title: String?, teams: [TeamRow]) {
        self.name = name
        self.title = title
        self.teams = teams
    }
}

/// The whole table: the sections in order and the index titles shown at its side.
public struct Table: Codable, Sendable, Equatable {
    /// The sections, by zone.
    public var sections: [TableSection]
    /// The sections' index titles without repeats, as a table view's section index shows them.
    public var indexTitles: [String]

    /// A table of these sections.
    public init(sections: [TableSection], indexTitles: [String]) {
        self.sections = sections
        self.indexTitles = indexTitles
    }
}

/// A row's place: a section and a row in it.
public struct RowPosition: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The section.
    public var section: Int
    /// The row in the section.
    public var row: Int

    /// A position.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// `[section,row]`, as table.js's errors write a position.
    public var description: String { "[\(section),\(row)]" }
}

/// One save's changes to the table, as the controller reported them: apply them in a table
/// view's batch-update order (deletions at old positions, then insertions at new ones).
public struct ChangeBatch: Codable, Sendable, Equatable {
    /// What happened to a section or row.
    public enum Change: String, Codable, Sendable {
        /// A section or row that is new: place it at its new position.
        case insert
        /// A section or row that is gone: remove it from its old position.
        case delete
        /// A row that changed place: remove it from its old position and place it at its new one.
        case move
        /// A row whose team changed but not its place: show the new values where it is.
        case update
    }

    /// A section inserted (at its new index) or deleted (at its old one).
    public struct SectionChange: Codable, Sendable, Equatable {
        /// Insert or delete.
        public var change: Change
        /// The section's index: old for a delete, new for an insert.
        public var index: Int
        /// The zone.
        public var name: String
        /// The section's index title.
        public var title: String?

        /// A section change.
        public init(change: Change, index: Int, name: String, title: String?) {
            self.change = change
            self.index = index
            self.name = name
            self.title = title
        }
    }

    /// A row inserted, deleted, moved or updated, with the team's values after the save.
    public struct RowChange: Codable, Sendable, Equatable {
        /// What happened to the row.
        public var change: Change
        /// The team's ID (``TeamRow/id``).
        public var id: String
        /// The old position, for a delete, a move and an update.
        public var from: RowPosition?
        /// The new position, for an insert and a move (and an update that moved).
        public var to: RowPosition?
        /// The team as it is now; nil for a delete, whose team is gone.
        public var team: TeamRow?

        /// A row change.
        public init(change: Change, id: String, from: RowPosition?, to: RowPosition?, team: TeamRow?) {
            self.change = change
            self.id = id
            self.from = from
            self.to = to
            self.team = team
        }
    }

    /// Section changes.
    public var sections: [SectionChange]
    /// Row changes.
    public var rows: [RowChange]
    /// The index titles after the batch.
    public var indexTitles: [String]

    /// A batch of these changes.
    public init(sections: [SectionChange], rows: [RowChange], indexTitles: [String]) {
        self.sections = sections
        self.rows = rows
        self.indexTitles = indexTitles
    }
}

/// A message from the server to a page.
public enum ServerMessage: Codable, Sendable, Equatable {
    /// The whole table, numbered with the last batch it includes.
    case snapshot(seq: Int, table: Table)
    /// The next change batch.
    case batch(seq: Int, batch: ChangeBatch)
    /// A request of the page's succeeded: `request` is `win` or `add`.
    case ack(request: String, team: TeamRow)
    /// A request of the page's was refused; the connection stays open.
    case error(reason: String)

    private enum CodingKeys: String, CodingKey { case type, seq, table, batch, request, team, reason }

    /// Writes the message as the page reads it: an object whose `type` (`snapshot`, `batch`,
    /// `ack` or `error`) says which other fields it has.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .snapshot(let seq, let table):
            try container.encode("snapshot", forKey: .type)
            try container.encode(seq, forKey: .seq)
            try container.encode(table, forKey: .table)
        case .batch(let seq, let batch):
            try container.encode("batch", forKey: .type)
            try container.encode(seq, forKey: .seq)
            try container.encode(batch, forKey: .batch)
        case .ack(let request, let team):
            try container.encode("ack", forKey: .type)
            try container.encode(request, forKey: .request)
            try container.encode(team, forKey: .team)
        case .error(let reason):
            try container.encode("error", forKey: .type)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// Reads a message written by ``encode(to:)``.
    ///
    /// - Throws: `DecodingError` when a field is missing or the `type` is not one of the four.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "snapshot":
            self = .snapshot(seq: try container.decode(Int.self, forKey: .seq), table: try container.decode(Table.self, forKey: .table))
        case "batch":
            self = .batch(seq: try container.decode(Int.self, forKey: .seq), batch: try container.decode(ChangeBatch.self, forKey: .batch))
        case "ack":
            self = .ack(request: try container.decode(String.self, forKey: .request), team: try container.decode(TeamRow.self, forKey: .team))
        case "error":
            self = .error(reason: try container.decode(String.self, forKey: .reason))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown message type \(other)")
        }
    }
}
