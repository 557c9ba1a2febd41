import Foundation

/// Which state of the store a context reads: Core Data's `NSQueryGenerationToken`.
///
/// A context pinned to a generation (``ManagedObjectContext/setQueryGenerationFrom(_:)``) reads
/// the store as it was when the generation began, whatever other contexts, processes or batch
/// requests commit meanwhile: its fetches, counts and faults all see one consistent state. Pass
/// ``current`` to pin a context to the state at its next read, or a context's
/// ``ManagedObjectContext/queryGenerationToken`` to pin another context to the same state.
///
/// ```swift
/// try context.setQueryGenerationFrom(.current)
/// let teams = try context.fetch(Team.fetchRequest())   // the store as of this fetch
/// // ...another process commits...
/// let again = try context.fetch(Team.fetchRequest())   // still the same teams
/// ```
public final class QueryGenerationToken: Hashable, Sendable, CustomStringConvertible {
    /// Pins a context to the store's state at its next read.
    public static let current = QueryGenerationToken(generation: nil)

    /// The generation this token names; nil for ``current``.
    let generation: QueryGeneration?

    init(generation: QueryGeneration?) {
        self.generation = generation
    }

    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        lhs.generation === rhs.generation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(generation.map(ObjectIdentifier.init))
    }

    public var description: String {
        guard let generation else { return "<QueryGenerationToken current>" }
        return "<QueryGenerationToken \(generation.number)>"
    }
}

/// A store's reads pinned to one state of it, made by the store (``PersistentStoreBackend/pinReads()``):
/// an SQLite connection holding a read transaction, a PostgreSQL connection in a repeatable-read
/// transaction, a copy of the in-memory store's tables. Released with its generation.
package protocol StoreReadPin: AnyObject, Sendable {}

/// One state of a coordinator's stores, shared by the contexts pinned to it. The context that makes
/// it pins every store at once; a store that failed to pin then is pinned at its first read.
final class QueryGeneration: Sendable {
    /// The generation whose pins the reads of the current task use: set by a pinned context
    /// around its reads of the store, read by the stores.
    @TaskLocal static var reading: QueryGeneration?

    private static let counter = Locked<Int>(0)

    let coordinator: ObjectIdentifier
    /// For descriptions: the generations made in this process, in order.
    let number: Int
    private let pins = Locked<[ObjectIdentifier: any StoreReadPin]>([:])

    init(coordinator: PersistentStoreCoordinator) {
        self.coordinator = ObjectIdentifier(coordinator)
        number = Self.counter.withLock { count in
            count += 1
            return count
        }
    }

    /// The pin of `backend`'s reads, made at the first call; nil if the store cannot pin reads.
    func pin(for backend: any PersistentStoreBackend) throws -> (any StoreReadPin)? {
        let key = ObjectIdentifier(backend)
        return try pins.withLock { pins in
            if let pin = pins[key] { return pin }
            guard let pin = try backend.pinReads() else { return nil }
            pins[key] = pin
            return pin
        }
    }
}
