/// A store's identifier as a small number, for ``ManagedObjectID``: an ID names its store with
/// four bytes instead of a 16-byte string, so an ID fits in 20 bytes and a property value (which
/// can hold one) in 24, where it took 40. Every value slot of every object pays for the widest
/// case.
///
/// Tags are handed out once per identifier for the life of the process; 0 stands for no store
/// (a temporary ID).
package struct StoreTag: Hashable, Sendable {
    let rawValue: UInt32

    package static let none = StoreTag(rawValue: 0)

    private init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The tag of `identifier`, the same one every time.
    package init(_ identifier: String) {
        self = Self.table.withLock { table in
            if let known = table.tags[identifier] { return known }
            table.identifiers.append(identifier)
            let tag = StoreTag(rawValue: UInt32(table.identifiers.count))
            table.tags[identifier] = tag
            return tag
        }
    }

    /// The identifier the tag stands for; nil for ``none``.
    package var identifier: String? {
        guard rawValue > 0 else { return nil }
        return Self.table.withLock { $0.identifiers[Int(rawValue) - 1] }
    }

    /// Identifiers seen by this process: a store's identifier is a UUID, made once per store
    /// file or database, so the table stays as small as the number of stores opened.
    private static let table = Locked<(tags: [String: StoreTag], identifiers: [String])>(([:], []))
}
