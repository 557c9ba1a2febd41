/// One controller set-up the fuzzer drives: its request, its sections and its store.
public struct FuzzConfiguration: Sendable, CustomStringConvertible {
    /// What the set-up is, for reports and test names.
    public let name: String
    /// Sort keys, most significant first.
    public let sortKeys: [(key: String, ascending: Bool)]
    /// The section key path, or nil for one unnamed section.
    public let sectionKeyPath: String?
    /// The predicate's format, or nil to fetch every card.
    public let predicate: String?
    /// Where the cards are saved.
    public let store: FuzzStoreKind
    /// Mixed into the base seed, so that each set-up sees its own batches.
    public let salt: UInt64
    /// The controllers' longest run of rows in one piece of their index, or nil for the usual
    /// length; short pieces make the fuzzer's few dozen rows cross as many piece boundaries as a
    /// long result does.
    public let rowChunkLength: Int?
    /// The request's `fetchOffset` and `fetchLimit` (0 for none), which the controllers keep as
    /// changes arrive.
    public let fetchOffset: Int
    public let fetchLimit: Int

    /// A set-up; ``all`` holds the ones the fuzzer runs.
    public init(name: String, sortKeys: [(key: String, ascending: Bool)], sectionKeyPath: String?, predicate: String?,
                store: FuzzStoreKind, salt: UInt64, rowChunkLength: Int? = nil, fetchOffset: Int = 0, fetchLimit: Int = 0) {
        self.name = name
        self.sortKeys = sortKeys
        self.sectionKeyPath = sectionKeyPath
        self.predicate = predicate
        self.store = store
        self.salt = salt
        self.rowChunkLength = rowChunkLength
        self.fetchOffset = fetchOffset
        self.fetchLimit = fetchLimit
    }

    public var description: String { name }

    /// The seed of this set-up's run from a base seed: what a failed run reports and a replay
    /// passes back.
    public func seed(base: UInt64) -> UInt64 { base ^ salt }

    /// The set-ups the tests and ocd-bench run: sectioned and not, sort keys with ties, a
    /// predicate on a changing flag or none, SQLite and in-memory stores, index pieces of a few
    /// rows, which split and merge as rows come and go, and windows (a limit, an offset, both)
    /// that rows are pushed out of and pulled into at both edges.
    public static let all: [FuzzConfiguration] = [
        FuzzConfiguration(name: "sectioned by deck, rank descending, visible only",
                          sortKeys: [("deck", true), ("rank", false), ("title", true)],
                          sectionKeyPath: "deck", predicate: "visible == YES", store: .sqlite, salt: 1),
        FuzzConfiguration(name: "unsectioned by rank with ties, rank below 40",
                          sortKeys: [("rank", true)], sectionKeyPath: nil, predicate: "rank < 40", store: .sqlite, salt: 2),
        FuzzConfiguration(name: "sectioned by deck descending, in memory",
                          sortKeys: [("deck", false), ("title", true)], sectionKeyPath: "deck", predicate: nil,
                          store: .inMemory, salt: 3),
        FuzzConfiguration(name: "unsectioned by rank descending, in pieces of at most 7 rows",
                          sortKeys: [("rank", false), ("title", true)], sectionKeyPath: nil, predicate: "visible == YES",
                          store: .sqlite, salt: 4, rowChunkLength: 8),
        FuzzConfiguration(name: "unsectioned by rank with ties, visible only, the first 10",
                          sortKeys: [("rank", true)], sectionKeyPath: nil, predicate: "visible == YES",
                          store: .sqlite, salt: 6, fetchLimit: 10),
        FuzzConfiguration(name: "sectioned by deck, rank descending, rows 6 to 20",
                          sortKeys: [("deck", true), ("rank", false), ("title", true)], sectionKeyPath: "deck", predicate: nil,
                          store: .sqlite, salt: 7, rowChunkLength: 4, fetchOffset: 5, fetchLimit: 15),
        FuzzConfiguration(name: "unsectioned by rank descending, rank below 40, after the first 8, in memory",
                          sortKeys: [("rank", false), ("title", true)], sectionKeyPath: nil, predicate: "rank < 40",
                          store: .inMemory, salt: 8, fetchOffset: 8),
    ] + postgres

    #if Postgres
    /// With the `Postgres` trait, the PostgreSQL store too (its server from `OCD_POSTGRES_URL`).
    static let postgres = [
        FuzzConfiguration(name: "sectioned by deck, rank descending, visible only, on PostgreSQL",
                          sortKeys: [("deck", true), ("rank", false), ("title", true)],
                          sectionKeyPath: "deck", predicate: "visible == YES", store: .postgres, salt: 5),
    ]
    #else
    static let postgres: [FuzzConfiguration] = []
    #endif
}
