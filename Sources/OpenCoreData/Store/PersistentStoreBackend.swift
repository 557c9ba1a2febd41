import Foundation

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

    /// How many rows a fetch selects, or nil if the store cannot apply its predicate (the caller
    /// then fetches and counts).
    func count(_ fetch: StoreFetch) throws -> Int?

    /// Reserves primary keys for new objects of an entity's hierarchy.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64]

    /// Writes a save in one transaction, or nothing if rows conflict.
    func save(_ request: SaveRequest) throws -> SaveOutcome

    /// Releases files and connections.
    func close()
}
