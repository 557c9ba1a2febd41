import Foundation

extension ManagedObjectContext {
    /// Merges commits made elsewhere (see ``StoreChangeFeed``) as a save of another context of
    /// this coordinator is merged: current values come from the store, and the values the
    /// commits overwrote (kept in the store's history) become the pre-images by which controllers
    /// find where changed and deleted rows were. Current values are read as this context has
    /// seen them once this change is merged: commits it has not merged yet are taken back out.
    func mergeStoreChange(_ change: StoreChange) {
        assertOnQueue()
        var saved = SavedChanges()
        saved.deleted = change.deleted
        saved.changedKeys = change.changedKeys
        var current: [ManagedObjectID: RowSnapshot] = [:]
        do {
            let read = Dictionary(try snapshotsAsSeen(for: change.inserted + change.updated).map { ($0.objectID, $0) },
                                  uniquingKeysWith: { first, _ in first })
            saved.inserted = change.inserted.compactMap { read[$0] }
            for id in change.updated { current[id] = read[id] }
        } catch {
            Log.context.error("merging commits made elsewhere: could not read current values: \(error)")
        }
        saved.updated = change.updated.compactMap { registeredObjectIfAlive(for: $0) == nil ? nil : current[$0] }
        // An updated row the store no longer has was deleted by a later commit.
        saved.deleted += change.updated.filter { current[$0] == nil }
        var preImages: [ManagedObjectID: RowSnapshot] = [:]
        for id in change.updated {
            guard let now = current[id], let prior = change.priorValues[id] else { continue }
            preImages[id] = Self.snapshot(of: id, base: now, with: prior)
        }
        for id in change.deleted {
            guard let prior = change.priorValues[id], !prior.isEmpty else { continue }
            let empty = RowSnapshot(objectID: id, values: Array(repeating: .null, count: id.entity.slots.count), version: 0)
            preImages[id] = Self.snapshot(of: id, base: empty, with: prior)
        }
        saved.preImages = preImages
        let unregistered = change.updated.compactMap { registeredObjectIfAlive(for: $0) == nil ? current[$0] : nil }
        mergeSavedChanges(saved, reportingUpdated: change.updated, withRows: unregistered)
    }

    /// `base` with the named attributes set to `values`.
    private static func snapshot(of id: ManagedObjectID, base: RowSnapshot, with values: [String: PropertyValue]) -> RowSnapshot {
        var snapshot = base
        for (name, value) in values {
            guard let slot = id.entity.slotByName[name], slot < snapshot.values.count else { continue }
            snapshot.values[slot] = value
        }
        return snapshot
    }
}
