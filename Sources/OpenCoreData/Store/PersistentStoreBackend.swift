package import Foundation

/// What a store type implements: the SQLite and in-memory stores here, the PostgreSQL store in its
/// own module. A backend is used from many queues at once and does its own locking.
package protocol PersistentStoreBackend: AnyObject, Sendable {
    /// Opens the store for `model`: creates it, checks it was made by a compatible model, and
    /// migrates lightweight differences. Returns the store's identifier (its UUID).
    func load(model: ManagedObjectModel) throws -> String

    /// The current values of these objects; rows that no longer exist are left out.
    func snapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot]

    /// The destinations of a to-many relationship, for each of several objects, in key order.
    func relatedObjectIDs(of ids: [ManagedObjectID], through relationship: RelationshipDescription) throws -> [ManagedObjectID: [ManagedObjectID]]

    /// The rows a fetch selects, in order.
    func fetch(_ fetch: StoreFetch) throws -> StoreFetchResult

    /// The primary keys of the rows an identifiers-only fetch selects, in order, when every row
    /// is of the fetched entity (it has no subentities) and the store applies the whole
    /// predicate; nil otherwise, and the caller fetches IDs. Large controllers start from this:
    /// it makes no object IDs.
    func primaryKeys(_ fetch: StoreFetch) throws -> [Int64]?

    /// How many rows a fetch selects, or nil if the store cannot apply its predicate (the caller
    /// then fetches and counts).
    func count(_ fetch: StoreFetch) throws -> Int?

    /// For the rows a fetch selects, each distinct stored value of `key`'s attribute and how many
    /// rows hold it, in the order `key` sorts them, NULL included as `.null`. Nil when the store
    /// cannot count exactly (a predicate it cannot express, a key through a relationship, a limit
    /// or an offset): the caller then counts the fetched rows. The fetch's sort keys are ignored.
    /// Groups are by stored value, so values that differ but sort equal under the key's
    /// comparison (case variants under a case-insensitive key) are separate, adjacent groups,
    /// although the fetch interleaves their rows.
    func sectionCounts(_ fetch: StoreFetch, groupedBy key: ResolvedSortKey) throws -> [SectionCount]?

    /// For the rows a fetch selects, one row per group of equal values of the group keys: the
    /// keys' values, then each function's value over the group's non-nil values, computed as
    /// ``StoreAggregateFetch/Function/compute(_:)`` does; one group of every row when there are
    /// no keys. In any order. Nil when the store cannot compute it exactly (a predicate it cannot
    /// express): the caller then groups the fetched rows. A default implementation returns nil.
    func aggregate(_ fetch: StoreAggregateFetch) throws -> [[PropertyValue]]?

    /// Runs `body` with a function that reads the stored values of `attributes` (of `entity` or
    /// its superentities) for rows of `entity`'s table by primary key, in the order of the keys,
    /// nil for a row that does not exist. Every read `body` makes sees the same state of the store
    /// (one read transaction), and costs about one query whatever the number of keys. `generation`
    /// reads the store's generation in that state (see ``generation()``), and `history` its
    /// persistent history (as ``PersistentHistoryBackend/fetchHistory(from:includingChanges:)``
    /// with changes; empty for a store that keeps none). The functions are valid only inside `body`.
    func readingAttributes<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                              _ body: (_ read: ([Int64]) throws -> [[PropertyValue]?], _ generation: () throws -> Int64,
                                        _ history: (HistoryStart) throws -> [HistoryTransactionRecord]) throws -> T) throws -> T

    /// A number that changes with every commit to the store, by any connection or process, through
    /// this library or not, and with nothing else; kept in the store, so it survives reopening it.
    /// Section caches are valid only at the generation they were written at.
    func generation() throws -> Int64

    /// ``generation()``, read without a trace in the store's SQL log: the change feed reads it
    /// whenever the store's files change, which says nothing about what the program asked.
    func quietGeneration() throws -> Int64

    /// Reserves primary keys for new objects of an entity's hierarchy.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64]

    /// Writes a save in one transaction, advancing the generation, or nothing if rows conflict.
    /// The outcome tells the generations around the commit.
    func save(_ request: SaveRequest) throws -> SaveOutcome

    /// Inserts new rows of one entity without uniqueness constraints in one transaction,
    /// recorded in the persistent history as `info` and advancing the generation, as a save of
    /// them would: batch inserts come this way. Returns each row's primary key, in order, with the
    /// outcome. A default implementation saves the rows as new objects.
    func insert(_ rows: StoreRowBatch, info: HistoryTransactionInfo) throws -> StoreRowBatchInsertion

    /// Writes a batch update with the store's own set-based statement, in one transaction
    /// recorded in the persistent history as `info` (an update change per row) and advancing the
    /// generation and each row's version, as a save of the rows would; or declines, writing
    /// nothing. A default implementation declines.
    func update(_ update: StoreBatchUpdate, info: HistoryTransactionInfo) throws -> StoreBatchUpdateOutcome

    /// Releases files and connections.
    func close()

    /// Pins reads to the store's present state, for a query generation: reads made while a
    /// task's ``QueryGeneration/reading`` holds this pin must see that state. Nil (the default)
    /// when the store cannot; its reads then see the latest state.
    func pinReads() throws -> (any StoreReadPin)?

    /// The ``ManagedObjectModel/versionChecksum`` of the model that made the store or last
    /// migrated it, read before ``load(model:)``; nil for a store not made yet, and for stores
    /// that keep nothing between loads (the default).
    func recordedModelChecksum() throws -> String?

    /// The URL ``PersistentStore/url`` shows when it is not the description's: a server
    /// store's URL without its password. Nil (the default) shows the description's URL.
    var redactedURL: URL? { get }
}

extension PersistentStoreBackend {
    /// Stores without a faster way fetch IDs.
    package func primaryKeys(_ fetch: StoreFetch) throws -> [Int64]? { nil }

    /// Stores without SQL group the rows in memory, through the caller.
    package func aggregate(_ fetch: StoreAggregateFetch) throws -> [[PropertyValue]]? { nil }
}

extension PersistentStoreBackend {
    package func quietGeneration() throws -> Int64 { try generation() }

    package func pinReads() throws -> (any StoreReadPin)? { nil }

    package func recordedModelChecksum() throws -> String? { nil }

    /// The pin the current task's query generation holds on this store, made at its first read.
    package var readPin: (any StoreReadPin)? {
        get throws { try QueryGeneration.reading?.pin(for: self) }
    }

    package var redactedURL: URL? { nil }
}
