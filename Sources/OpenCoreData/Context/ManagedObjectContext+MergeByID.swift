import Foundation

extension ManagedObjectContext.NotificationKey {
    /// The changed keys per updated object, as `[ManagedObjectID: Set<String>]`, in notifications
    /// that name objects by ID (a history transaction's). Not API.
    static let changedKeysByID = Self(rawValue: "OpenCoreData.changedKeysByID")
}

extension ManagedObjectContext {
    /// Merges a change notification's user info that names objects by ID, URI or object, under the
    /// ID keys (`inserted_objectIDs`, ...) or the plain ones (`inserted`, ...): current values come
    /// from the parent store.
    func mergeChanges(byID info: [AnyHashable: Any]) {
        mergeChanges(inserted: objectIDs(in: info, under: [.insertedObjectIDs, .insertedObjects]),
                     updated: objectIDs(in: info, under: [.updatedObjectIDs, .updatedObjects]),
                     deleted: objectIDs(in: info, under: [.deletedObjectIDs, .deletedObjects]),
                     changedKeys: info[NotificationKey.changedKeysByID.rawValue] as? [ManagedObjectID: Set<String>] ?? [:])
    }

    /// The objects named under `keys`, each once, in order: arrays or sets of IDs, of URIs
    /// (resolved by the coordinator; URIs of other stores are left out) or of objects.
    private func objectIDs(in info: [AnyHashable: Any], under keys: [NotificationKey]) -> [ManagedObjectID] {
        var seen = Set<ManagedObjectID>()
        var result: [ManagedObjectID] = []
        for key in keys {
            guard let value = info[key.rawValue] else { continue }
            let items: [Any] = (value as? [Any]) ?? (value as? Set<ManagedObjectID>).map { Array($0) }
                ?? (value as? Set<URL>).map { Array($0) } ?? (value as? Set<ManagedObject>).map { Array($0) } ?? []
            for item in items {
                let id: ManagedObjectID?
                switch item {
                case let objectID as ManagedObjectID: id = objectID
                case let url as URL: id = persistentStoreCoordinator?.managedObjectID(forURIRepresentation: url)
                case let object as ManagedObject: id = object.objectID
                default: id = nil
                }
                if let id, seen.insert(id).inserted { result.append(id) }
            }
        }
        return result
    }
}
