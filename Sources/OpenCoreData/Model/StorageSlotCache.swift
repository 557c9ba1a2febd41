import Foundation
import Synchronization

/// The slots of an entity's `@Managed` properties by the identity of their storage key paths,
/// filled on first use: every typed property access looks its key path up here. An entity has a
/// handful of properties, so a short list read in order costs less than hashing the key.
///
/// Reads take no lock: the list is an immutable object published with an atomic store and read
/// with an atomic load (taking a lock on each property read was a third of the read). Each
/// addition publishes a new list and never frees the old one, which a reader may still be
/// scanning: an entity leaves as many small lists as it has properties, once.
final class StorageSlotCache: Sendable {
    private final class Entries: Sendable {
        let list: [(keyPath: ObjectIdentifier, slot: Int)]

        init(_ list: [(keyPath: ObjectIdentifier, slot: Int)]) { self.list = list }
    }

    private let published = Atomic<Unmanaged<Entries>?>(nil)
    /// The list, for additions, under a pthread lock (which the thread sanitizer sees; a lock
    /// around nothing, `Locked<Void>`, shares its address with the lock and was reported).
    private let additions = Locked<[(keyPath: ObjectIdentifier, slot: Int)]>([])

    func slot(for keyPath: ObjectIdentifier) -> Int? {
        guard let entries = published.load(ordering: .acquiring) else { return nil }
        return entries._withUnsafeGuaranteedRef { entries in
            for entry in entries.list where entry.keyPath == keyPath { return entry.slot }
            return nil
        }
    }

    func remember(_ slot: Int, for keyPath: ObjectIdentifier) {
        additions.withLock { list in
            guard !list.contains(where: { $0.keyPath == keyPath }) else { return }
            list.append((keyPath, slot))
            published.store(Unmanaged.passRetained(Entries(list)), ordering: .releasing)
        }
    }
}
