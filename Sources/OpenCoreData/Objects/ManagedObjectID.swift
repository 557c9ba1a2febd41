public import Foundation
import Synchronization

/// The identity of an object, valid across contexts and threads: Core Data's
/// `NSManagedObjectID`.
///
/// An inserted object has a temporary ID until it is saved (or until
/// ``ManagedObjectContext/obtainPermanentIDs(for:)``); then it gets a permanent one that names its
/// store and primary key. Pass IDs, not objects, between contexts:
///
/// ```swift
/// let id = team.objectID
/// background.perform {
///     let copy = background.object(with: id) as? Team
/// }
/// ```
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The object's entity.
    public let entity: EntityDescription
    /// The primary key for a permanent ID; a process-wide serial number for a temporary one.
    package let key: Int64
    /// The store of a permanent ID; ``StoreTag/none`` for a temporary one.
    let store: StoreTag

    /// The store's identifier for permanent IDs; nil for temporary ones.
    var storeIdentifier: String? { store.identifier }

    /// Whether the ID will change when the object is saved.
    public var isTemporaryID: Bool { store == .none }

    package init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.init(entity: entity, store: StoreTag(storeIdentifier), primaryKey: primaryKey)
    }

    /// A permanent ID of the store whose tag the caller keeps, without looking the tag up: the
    /// stores make one for every row they read.
    package init(entity: EntityDescription, store: StoreTag, primaryKey: Int64) {
        self.entity = entity
        self.store = store
        self.key = primaryKey
    }

    /// The temporary ID with this serial number (the same ID ``makeTemporary(for:)`` made).
    init(temporaryFor entity: EntityDescription, serial: Int64) {
        self.entity = entity
        self.store = .none
        self.key = serial
    }

    private static let temporarySerial = Atomic<Int64>(0)
    /// Distinguishes this process's temporary IDs in URIs.
    private static let processTag = UUID().uuidString

    /// A new temporary ID, unique in this process.
    static func makeTemporary(for entity: EntityDescription) -> ManagedObjectID {
        let serial = temporarySerial.add(1, ordering: .relaxed).newValue
        return ManagedObjectID(temporaryFor: entity, serial: serial)
    }

    /// The primary key of a permanent ID.
    var primaryKey: Int64? { isTemporaryID ? nil : key }

    /// A URL naming the object, in Core Data's shape: `x-coredata://STORE-UUID/Team/p42` for a
    /// permanent ID, `x-coredata:///Team/tPROCESS-SERIAL` for a temporary one. Give a permanent
    /// one back to ``PersistentStoreCoordinator/managedObjectID(forURIRepresentation:)``.
    public func uriRepresentation() -> URL {
        let text: String
        if let storeIdentifier {
            text = "x-coredata://\(storeIdentifier)/\(entity.entityName)/p\(key)"
        } else {
            text = "x-coredata:///\(entity.entityName)/t\(Self.processTag)-\(key)"
        }
        return URL(string: text) ?? URL(fileURLWithPath: "/")
    }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && lhs.entity === rhs.entity && lhs.store == rhs.store
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(ObjectIdentifier(entity))
    }

    public var description: String { uriRepresentation().absoluteString }
    public var debugDescription: String { "<ManagedObjectID \(description)>" }
}
