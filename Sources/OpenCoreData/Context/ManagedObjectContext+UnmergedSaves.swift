extension ManagedObjectContext {
    /// Another context of the coordinator committed a save: it joins this context's unmerged
    /// saves, and a merge of the oldest unmerged save is queued. Called under the coordinator's
    /// save lock, so saves join in the order they committed.
    func saveWasAnnounced(_ saved: SavedChanges) {
        unmergedSaves.withLock { $0.append(saved) }
        perform { [weak self] in self?.mergeOldestUnmergedSave() }
    }

    private func mergeOldestUnmergedSave() {
        let next = unmergedSaves.withLock { saves in saves.isEmpty ? nil : saves.removeFirst() }
        if let next { mergeSavedChanges(next) }
    }

    /// Stored values of objects as this context has seen them: the parent store's values, with
    /// saves committed by other contexts but not merged here yet taken back out (their
    /// pre-images put back), so that values read now agree with values read before those saves.
    /// A fetched results controller compares rows it never loaded this way.
    func snapshotsAsSeen(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        guard case .coordinator(let coordinator) = parentStore else { return try parentSnapshots(for: ids) }
        return try coordinator.withSaveLock {
            let rows = try parentSnapshots(for: ids)
            let unmerged = unmergedSaves.withLock { $0 }
            guard !unmerged.isEmpty else { return rows }
            var byID = Dictionary(rows.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            var settled = Set<ManagedObjectID>()
            for save in unmerged {
                let inserted = Set(save.inserted.map(\.objectID))
                for id in ids where !settled.contains(id) {
                    if inserted.contains(id) {
                        byID[id] = nil
                        settled.insert(id)
                    } else if let preImage = save.preImages[id] {
                        byID[id] = preImage
                        settled.insert(id)
                    }
                }
            }
            return Array(byID.values)
        }
    }
}

extension ManagedObjectContext {
    /// Runs `body` with a function that reads stored attributes of objects (of `entity`'s table)
    /// as this context has seen them, like ``snapshotsAsSeen(for:)`` but with one read
    /// transaction for every read `body` makes and only the columns asked for. Nil for a child
    /// context, whose parent's view is not a store's: the caller reads snapshots instead. The
    /// values come back in the order of the IDs, nil for a row the store does not have.
    func readingAttributesAsSeen<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                                    _ body: (_ read: ([ManagedObjectID]) throws -> [[PropertyValue]?]) throws -> T) throws -> T? {
        guard case .coordinator(let coordinator) = parentStore else { return nil }
        return try carryingQueue { try coordinator.withSaveLock {
            let unmerged = unmergedSaves.withLock { $0 }
            let insertedBySave = unmerged.map { Set($0.inserted.map(\.objectID)) }
            return try coordinator.readingAttributes(of: entity, attributes) { storeRead in
                try withoutActuallyEscaping(storeRead) { read in try body { ids in
                    // A temporary ID has no row: its key matches none (keys are never negative).
                    var values = try read(ids.map { $0.isTemporaryID ? -1 : $0.key })
                    // Most reads find no unmerged save: then no ID is hashed at all.
                    guard !unmerged.isEmpty else { return values }
                    for (index, id) in ids.enumerated() where !id.isTemporaryID {
                        for (save, inserted) in zip(unmerged, insertedBySave) {
                            if inserted.contains(id) {
                                values[index] = nil
                                break
                            }
                            if let preImage = save.preImages[id] {
                                values[index] = attributes.map { preImage.value(at: $0.slot) }
                                break
                            }
                        }
                    }
                    return values
                } }
            }
        } }
    }
}
