/// Temporary IDs becoming permanent through a context tree.
///
/// A root context's save gives its new objects permanent IDs. Its descendants may hold the same
/// objects under the temporary IDs (a child pushed them up, or read them from the parent before
/// the save), and must rename them too, or a row read later under the permanent ID would become
/// a second object. The saving context cannot run code on its descendants' queues (one of them
/// may be waiting for it: a deadlock), so it hands each descendant the mapping in a locked inbox,
/// and schedules the renaming on the descendant's queue. A descendant that looks up a permanent ID
/// it does not hold, before that block runs, empties its inbox first (see
/// ``ManagedObjectContext/registeredObjectIfAlive(for:)``).
extension ManagedObjectContext {
    /// Replaces temporary IDs by permanent ones in the registry, remembers the old IDs so that
    /// looking them up still finds the objects, and hands the mapping to every context below this
    /// one.
    ///
    /// - Parameter savedInsertions: For a save of this context, the new objects it wrote, in the
    ///   mapping's order: the context lets them go once the save is reported (see
    ///   ``ObjectRegistry/releaseSaved(_:)``).
    func applyIDMapping(_ mapping: IDMapping, savedInsertions: [ManagedObject]? = nil) {
        guard !mapping.isEmpty else { return }
        if let savedInsertions {
            registry.renameSaved(savedInsertions, mapping: mapping)
        } else {
            registry.rename(mapping)
        }
        report(mapping)
        for descendant in descendants() {
            descendant.pendingRenamings.withLock { $0.append(mapping) }
            descendant.perform { descendant.applyPendingRenamings() }
        }
    }

    /// Applies the renamings handed down by ancestors, oldest first, and tells this context's
    /// observers of them (also of those ``renamePendingObjects()`` applied meanwhile).
    func applyPendingRenamings() {
        renamePendingObjects()
        let renamings = unreportedRenamings
        unreportedRenamings = []
        for mapping in renamings { report(mapping) }
    }

    /// Renames the objects of the renamings handed down and not applied yet, without telling
    /// observers: this runs in the middle of other work (a lookup), and the block that
    /// ``applyIDMapping(_:savedInsertions:)`` scheduled tells them.
    ///
    /// - Returns: Whether there were any.
    @discardableResult
    func renamePendingObjects() -> Bool {
        let mappings = pendingRenamings.withLock { pending in
            let taken = pending
            pending = []
            return taken
        }
        for mapping in mappings { registry.rename(mapping) }
        unreportedRenamings += mappings
        return !mappings.isEmpty
    }

    /// Tells the context's observers (fetched results controllers) that objects changed IDs.
    private func report(_ mapping: IDMapping) {
        deliverToObservers(.objectIDsDidChange(mapping))
    }

    /// Every context below this one: children, their children, and so on.
    private func descendants() -> [ManagedObjectContext] {
        var result: [ManagedObjectContext] = []
        var next = childContexts
        while let context = next.popLast() {
            result.append(context)
            next += context.childContexts
        }
        return result
    }
}
