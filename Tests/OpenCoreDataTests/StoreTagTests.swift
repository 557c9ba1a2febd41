import Foundation
import OpenCoreData
import Testing

/// Object IDs name their store with a tag (`StoreTag`) instead of the identifier itself; they must
/// compare, hash and print exactly as when they held the identifier.
@Suite struct StoreTagTests {
    // The model is kept: an entity refers to its model weakly.
    private static let model = ManagedObjectModel(entities: [EntityDescription(name: "Note")])
    private static var entity: EntityDescription { model.entities[0] }

    @Test func anIdentifierHasOneTagAndEachIdentifierItsOwn() {
        let first = UUID().uuidString, second = UUID().uuidString
        #expect(StoreTag(first) == StoreTag(first))
        #expect(StoreTag(first) != StoreTag(second))
        #expect(StoreTag(first).identifier == first)
        #expect(StoreTag(second).identifier == second)
        #expect(StoreTag.none.identifier == nil)
    }

    @Test func idsOfTwoStoresDifferAndIDsOfOneAreEqual() {
        let store = UUID().uuidString, other = UUID().uuidString
        let id = ManagedObjectID(entity: Self.entity, storeIdentifier: store, primaryKey: 7)
        let same = ManagedObjectID(entity: Self.entity, storeIdentifier: store, primaryKey: 7)
        let elsewhere = ManagedObjectID(entity: Self.entity, storeIdentifier: other, primaryKey: 7)
        #expect(id == same)
        #expect(id.hashValue == same.hashValue)
        #expect(id != elsewhere)
        #expect(Set([id, same, elsewhere]).count == 2)
        #expect(!id.isTemporaryID)
        #expect(id.uriRepresentation().absoluteString == "x-coredata://\(store)/Note/p7")
        #expect(elsewhere.uriRepresentation().absoluteString == "x-coredata://\(other)/Note/p7")
    }

    @Test func aTemporaryIDIsNoStoresID() {
        let temporary = ManagedObject(entity: Self.entity, insertInto: nil).objectID
        let permanent = ManagedObjectID(entity: Self.entity, storeIdentifier: UUID().uuidString, primaryKey: temporary.key)
        #expect(temporary.isTemporaryID)
        #expect(temporary != permanent)
    }

    /// The reason for the tag: a property value (which can hold an object ID) is as wide as its
    /// widest case, and every value slot of every object pays for it.
    @Test func aPropertyValueTakesTwentyFourBytes() {
        #expect(MemoryLayout<ManagedObjectID>.size <= 20)
        #expect(MemoryLayout<PropertyValue>.stride == 24)
    }
}
