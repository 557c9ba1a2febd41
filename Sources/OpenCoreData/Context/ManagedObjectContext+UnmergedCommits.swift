extension ManagedObjectContext {
    /// Another context of the coordinator committed a save: it joins this context's unmerged
    /// commits, and a merge of the oldest is queued. Called under the coordinator's save lock, so
    /// commits join in the order they were made.
    func saveWasAnnounced(_ saved: SavedChanges) {
        queueMerge(of: UnmergedCommit(saved))
    }

    /// Commits made elsewhere reached this context (see ``StoreChangeFeed``): like
    /// ``saveWasAnnounced(_:)``, called under the save lock.
    func storeChangeWasGiven(_ change: StoreChange) {
        queueMerge(of: UnmergedCommit(change))
    }

    private func queueMerge(of commit: UnmergedCommit) {
        unmergedCommits.withLock { $0.append(commit) }
        perform { [weak self] in self?.mergeOldestUnmergedCommit() }
    }

    /// Merges the oldest commit not merged yet, if a fetch has not merged it already (see
    /// ``mergeEveryCommitSoFar()``); false when there was none.
    @discardableResult
    func mergeOldestUnmergedCommit() -> Bool {
        switch unmergedCommits.withLock({ $0.removeFirst() }) {
        case .save(let saved, _)?: mergeSavedChanges(saved)
        case .store(let change, _)?: mergeStoreChange(change)
        case nil: return false
        }
        return true
    }

    /// Stored values of objects as this context has seen them: the parent store's values, with
    /// commits this context has not merged yet taken back out (the values they overwrote put
    /// back), so that values read now agree with values read before those commits. A fetched
    /// results controller compares rows it never loaded this way.
    ///
    /// The store may hold commits that other processes made and that no context has been given
    /// yet: after the read, the coordinator gives its contexts every commit up to the store's
    /// generation, so that every commit the read saw is taken back or already merged here.
    func snapshotsAsSeen(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        // Every controller of a merge asks, mostly for nothing: no generation read then.
        guard !ids.isEmpty else { return [] }
        guard case .coordinator(let coordinator) = parentStore else { return try parentSnapshots(for: ids) }
        let followsCommits = automaticallyMergesChangesFromParent
        return try coordinator.withSaveLock {
            let rows = try parentSnapshots(for: ids)
            if followsCommits {
                coordinator.catchUpWithStore(through: try coordinator.store().backend.quietGeneration())
            }
            let unmerged = unmergedCommits.withLock { $0 }
            guard !unmerged.isEmpty else { return rows }
            var byID = Dictionary(rows.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            for id in Set(ids) where unmerged.touch(id) {
                byID[id] = unmerged.rowBefore(id, now: byID[id])
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
    ///
    /// The first read of a session fixes the state every read of it sees: when the store is
    /// then ahead of the coordinator's cursor, the commits in between are read from the history
    /// in the same transaction and given to the contexts first, so that every commit the reads
    /// see is one this context has merged or takes back out. A session that reads nothing reads
    /// no generation either.
    func readingAttributesAsSeen<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                                    _ body: (_ read: ([ManagedObjectID]) throws -> [[PropertyValue]?]) throws -> T) throws -> T? {
        guard case .coordinator(let coordinator) = parentStore else { return nil }
        let followsCommits = automaticallyMergesChangesFromParent
        return try carryingQueue { try coordinator.withSaveLock {
            try coordinator.readingAttributes(of: entity, attributes) { storeRead, generation, history in
                var unmerged: UnmergedCommits?
                return try withoutActuallyEscaping(storeRead) { read in
                    try withoutActuallyEscaping(generation) { generation in
                        try withoutActuallyEscaping(history) { history in
                            try body { ids in
                                // A temporary ID has no row: its key matches none (keys are never negative).
                                let values = try read(ids.map { $0.isTemporaryID ? -1 : $0.key })
                                if unmerged == nil {
                                    if followsCommits, case let seen = try generation(), seen > coordinator.storeCursor {
                                        coordinator.catchUpWithStore(through: seen, readingHistory: history)
                                    }
                                    unmerged = unmergedCommits.withLock { $0 }
                                }
                                guard let unmerged, !unmerged.isEmpty else { return values }
                                return Self.takingBack(unmerged, from: values, of: ids, attributes)
                            }
                        }
                    }
                }
            }
        } }
    }

    /// Attribute values read now, with what `unmerged` changed of each row put back.
    private static func takingBack(_ unmerged: UnmergedCommits, from values: [[PropertyValue]?], of ids: [ManagedObjectID],
                                   _ attributes: [AttributeDescription]) -> [[PropertyValue]?] {
        var values = values
        for (index, id) in ids.enumerated() where !id.isTemporaryID && unmerged.touch(id) {
            let now = values[index].map { read in
                var row = RowSnapshot(objectID: id, values: Array(repeating: .null, count: id.entity.slots.count), version: 0)
                for (attribute, value) in zip(attributes, read) where attribute.slot < row.values.count {
                    row.values[attribute.slot] = value
                }
                return row
            }
            values[index] = unmerged.rowBefore(id, now: now).map { row in attributes.map { row.value(at: $0.slot) } }
        }
        return values
    }
}
