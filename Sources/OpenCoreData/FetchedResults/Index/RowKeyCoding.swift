/// One `Int64` per result row, standing for its object ID: the primary key (or a temporary ID's
/// serial number) in the low 48 bits, the entity's index among the fetched entities above them,
/// and a flag for temporary IDs. Comparing the masked keys gives the stores' tie-break order:
/// saved objects by primary key, then new objects in creation order.
struct RowKeyCoding: Sendable {
    /// The fetched entity and, when subentities are included, its descendants.
    let entities: [EntityDescription]
    let storeIdentifier: String
    private let store: StoreTag
    private let entityIndex: [ObjectIdentifier: Int64]

    static let temporaryFlag: Int64 = 1 << 62
    static let keyBits: Int64 = 48
    static let keyMask: Int64 = (1 << keyBits) - 1
    private static let entityMask: Int64 = ((1 << 14) - 1) << keyBits

    init(entities: [EntityDescription], storeIdentifier: String) {
        self.entities = entities
        self.storeIdentifier = storeIdentifier
        store = StoreTag(storeIdentifier)
        entityIndex = Dictionary(uniqueKeysWithValues: entities.enumerated().map { (ObjectIdentifier($0.element), Int64($0.offset)) })
    }

    /// The row key of an object ID, or nil for an object of another entity or store (or with a
    /// key too large to encode, which no store of this library hands out).
    func rowKey(for id: ManagedObjectID) -> Int64? {
        guard let index = entityIndex[ObjectIdentifier(id.entity)], id.key >= 0, id.key <= Self.keyMask else { return nil }
        if id.isTemporaryID {
            return Self.temporaryFlag | (index << Self.keyBits) | id.key
        }
        guard id.store == store else { return nil }
        return (index << Self.keyBits) | id.key
    }

    func objectID(for rowKey: Int64) -> ManagedObjectID {
        let index = Int((rowKey & Self.entityMask) >> Self.keyBits)
        let entity = entities[min(index, entities.count - 1)]
        let key = rowKey & Self.keyMask
        if rowKey & Self.temporaryFlag != 0 {
            return ManagedObjectID(temporaryFor: entity, serial: key)
        }
        return ManagedObjectID(entity: entity, store: store, primaryKey: key)
    }

    /// Whether a row key could have been made by this coding (for keys read from a file).
    func isValid(_ rowKey: Int64) -> Bool {
        rowKey >= 0 && rowKey & ~(Self.temporaryFlag | Self.entityMask | Self.keyMask) == 0
            && Int((rowKey & Self.entityMask) >> Self.keyBits) < entities.count
    }

    /// Whether the row comes before the other among rows with equal sort keys.
    static func tieBreakPrecedes(_ lhs: Int64, _ rhs: Int64) -> Bool {
        (lhs & ~entityMask) < (rhs & ~entityMask)
    }
}
