/// The slots of an entity's `@Managed` properties by the identity of their storage key paths,
/// filled on first use: every typed property access looks its key path up here. An entity has a
/// handful of properties, so a short list read in order costs less than hashing the key. (A
/// pthread lock, through ``Locked``, rather than `Synchronization.Mutex`, which the thread
/// sanitizer cannot see.)
final class StorageSlotCache: Sendable {
    private let entries = Locked<[(keyPath: ObjectIdentifier, slot: Int)]>([])

    func slot(for keyPath: ObjectIdentifier) -> Int? {
        entries.withLock { entries in
            for entry in entries where entry.keyPath == keyPath { return entry.slot }
            return nil
        }
    }

    func remember(_ slot: Int, for keyPath: ObjectIdentifier) {
        entries.withLock { entries in
            if !entries.contains(where: { $0.keyPath == keyPath }) { entries.append((keyPath, slot)) }
        }
    }
}
