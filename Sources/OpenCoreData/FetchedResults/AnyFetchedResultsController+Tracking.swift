import Foundation

/// Following the context: which events the controller hears, and how it reports each batch.
extension AnyFetchedResultsController {
    var hasSubscribers: Bool {
        subscriberLock.withLock { !changeSubscribers.isEmpty || !snapshotSubscribers.isEmpty }
    }

    /// Samples the delegate's form, as Core Data samples its methods when it is set.
    func delegateDidChange() {
        switch delegate {
        case nil:
            delegateForm = .none
        case is any FetchedResultsControllerSnapshotDelegate:
            delegateForm = .snapshot
        case is any FetchedResultsControllerDifferenceDelegate where sectionNameKeyPath == nil:
            delegateForm = .difference
        case is any FetchedResultsControllerDifferenceDelegate:
            Log.context.warning("Difference delegate method is not supported when fetched results controller is configured with a sectionNameKeyPath; the classic callbacks are used")
            delegateForm = .classic
        default:
            delegateForm = .classic
        }
        if dictionaryResults != nil, delegateForm != .none {
            Log.context.error("a fetched results controller does not support both change tracking and fetch requests with dictionary results; its results will not change")
        }
        // Observers are the context's state: register on its queue, wherever the delegate is set.
        managedObjectContext.performAndWait { updateTracking() }
    }

    /// Listens to the context while someone hears the changes.
    func updateTracking() {
        let wantsTracking = delegateForm != .none || hasSubscribers
        if wantsTracking, observerToken == nil {
            observerToken = source.mergeRouter.add(self)
        } else if !wantsTracking, let observerToken {
            source.mergeRouter.remove(observerToken)
            self.observerToken = nil
        }
    }

    /// Whether a merge must reach the controller whole, rather than only with the rows its
    /// router finds concern it: while it is behind, delivering, writing a cache after each merge,
    /// or before it has read the request's predicate as it stands now.
    var followsEveryMergedRow: Bool {
        engine == nil || staleness != nil || isDeliveringChanges || !deferredEvents.isEmpty || cacheName != nil
            || followedPredicateRevision != requestPredicateRevision()
    }

    /// A merge without rows that concern the controller: its results stay as they are, and its
    /// rows now match the store after the merged commit.
    func mergeSkipped(_ merge: ContextEvent.DidMerge) {
        followCommit(of: .didMerge(merge))
    }

    /// Hears one event of the context, from the router: a merge only with the rows that concern
    /// the controller.
    func contextDidChange(_ event: ContextEvent) {
        guard engine != nil else { return }
        if delegate == nil, delegateForm != .none {
            // The delegate went away: stop tracking, as Core Data does at the next batch.
            delegateForm = .none
            updateTracking()
            guard hasSubscribers else { return }
        }
        if isDeliveringChanges {
            // A delegate saved or fetched: the event is handled once this batch is delivered, so
            // batches never nest.
            deferredEvents.append(event)
            return
        }
        process(event)
        while !deferredEvents.isEmpty {
            process(deferredEvents.removeFirst())
        }
        if event.kind == .didSave || event.kind == .didMerge { writeCacheIfTracking() }
    }

    private func process(_ event: ContextEvent) {
        guard let engine else { return }
        followCommit(of: event)
        if case .storeChangesMissed = event {
            refetchReportingDifference()
            return
        }
        if staleness != nil {
            // Behind since a batch failed: a fresh fetch covers this event too.
            staleness?.note(event)
            catchUp()
            return
        }
        // Core Data reads the request's predicate again for every batch.
        do {
            let revision = requestPredicateRevision()
            try engine.follow(requestPredicate: currentRequest().predicate())
            followedPredicateRevision = revision
        } catch {
            Log.context.error("the fetch request's predicate no longer fits: \(error); changes are classified with the previous one")
        }
        let batch: FetchedResultsEngine.PreparedBatch
        do {
            guard let prepared = try engine.prepare(event) else { return }
            batch = prepared
        } catch {
            changeProcessingFailed(error, event: event)
            return
        }
        for row in batch.classified.outOfOrderRows {
            Log.context.error("\(engine.coding.objectID(for: row.rowKey)) has section name '\(row.sectionName)', out of order where its sort keys place it; it is shown in section '\(row.shownInSection)'. Objects must be sorted by section name (Core Data error 134060)")
        }
        isDeliveringChanges = true
        defer { isDeliveringChanges = false }
        deliver(batch.classified, objects: batch.objects, from: engine.index, coding: engine.coding) { [unowned self] in
            engine.apply(batch) { [unowned self] in resolvedIndexTitle(forSectionName: $0) }
        }
    }

    /// Reports a batch to the delegate and the sequences.
    ///
    /// - Parameters:
    ///   - classified: The batch.
    ///   - objects: Objects the batch names, by row key, when the caller has them at hand.
    ///   - oldIndex: The rows before the batch.
    ///   - advance: Moves the controller to the rows after the batch; called after
    ///     `controllerWillChangeContent`, which still sees the old rows.
    func deliver(_ classified: ClassifiedBatch, objects batchObjects: [Int64: ManagedObject], from oldIndex: ResultIndex,
                 coding: RowKeyCoding, advance: () -> Void) {
        let hasClassicChanges = !classified.sectionChanges.isEmpty || !classified.rowChanges.isEmpty
        // Only the titles of deleted sections are needed from the old index: holding all of it
        // would make applying the batch copy the chunks it changes.
        let deletedSectionTitles = Dictionary(classified.sectionChanges.filter { $0.type == .delete }.map { change in
            (change.index, oldIndex.sections[change.index].indexTitle)
        }, uniquingKeysWith: { first, _ in first })
        if delegateForm == .classic, hasClassicChanges {
            delegate?.controllerWillChangeContent(self)
        }
        advance()
        guard let engine else { return }
        let index = engine.index
        switch delegateForm {
        case .classic where hasClassicChanges:
            guard let delegate else { break }
            for change in classified.sectionChanges {
                let info = change.type == .insert ? sectionInfo(at: change.index, in: index)
                    : FetchedSection(name: change.name, indexTitle: deletedSectionTitles[change.index] ?? nil, numberOfObjects: 0) { [] }
                delegate.controller(self, didChange: info, atSectionIndex: change.index, for: change.type)
            }
            for change in classified.rowChanges {
                let rowKey = change.newRowKey ?? change.oldRowKey ?? 0
                let object: Any = engine.configuration.returnsObjectIDs ? coding.objectID(for: rowKey)
                    : batchObjects[rowKey] ?? objects?.object(forRowKey: rowKey) ?? coding.objectID(for: rowKey)
                delegate.controller(self, didChange: object, at: change.from.map(Self.indexPath), for: change.type,
                                    newIndexPath: change.to.map(Self.indexPath))
            }
            delegate.controllerDidChangeContent(self)
        case .snapshot:
            (delegate as? any FetchedResultsControllerSnapshotDelegate)?
                .controller(self, didChangeContentWith: snapshot(of: index, coding: coding, reloading: classified))
        case .difference:
            if let difference = Self.difference(of: classified, coding: coding) {
                (delegate as? any FetchedResultsControllerDifferenceDelegate)?.controller(self, didChangeContentWith: difference)
            }
        default:
            break
        }
        if hasClassicChanges { publish(Self.changes(of: classified, coding: coding)) }
        if hasSnapshotSubscribers { publish(snapshot(of: index, coding: coding, reloading: classified)) }
    }

    /// After a fetch: the snapshot delegate and snapshot sequences receive the contents.
    func deliverFetchedContents() {
        guard let engine else { return }
        if delegateForm == .snapshot {
            (delegate as? any FetchedResultsControllerSnapshotDelegate)?
                .controller(self, didChangeContentWith: snapshot(of: engine.index, coding: engine.coding, reloading: nil))
        }
        if hasSnapshotSubscribers { publish(snapshot(of: engine.index, coding: engine.coding, reloading: nil)) }
    }

    // MARK: Forms of a batch

    static func indexPath(_ path: ClassifiedBatch.RowPath) -> IndexPath {
        IndexPath(row: path.row, section: path.section)
    }

    static func changes(of batch: ClassifiedBatch, coding: RowKeyCoding) -> FetchedResultsChanges {
        FetchedResultsChanges(
            sectionChanges: batch.sectionChanges.map { .init(type: $0.type, sectionIndex: $0.index, name: $0.name) },
            objectChanges: batch.rowChanges.map { change in
                .init(type: change.type, objectID: coding.objectID(for: change.newRowKey ?? change.oldRowKey ?? 0),
                      indexPath: change.from.map(indexPath), newIndexPath: change.to.map(indexPath))
            })
    }

    func snapshot(of index: ResultIndex, coding: RowKeyCoding, reloading batch: ClassifiedBatch?) -> FetchedResultsSnapshot {
        let sections = index.sections.map { section in
            (identifier: sectionNameKeyPath == nil ? FetchedResultsSnapshot.unsectionedIdentifier : section.name,
             items: section.rows.map(coding.objectID(for:)))
        }
        let reloaded = (batch?.rowChanges ?? []).filter { $0.type == .update || $0.type == .move }
            .compactMap { $0.newRowKey.map(coding.objectID(for:)) }
        return FetchedResultsSnapshot(sections: sections, reloadedItemIdentifiers: reloaded)
    }

    /// The batch as a difference of the single section's rows: inserts, removes, and an
    /// associated remove and insert for every object that moved or changed. An object whose ID
    /// changed (temporary to permanent) is a remove of the old ID and an insert of the new one.
    static func difference(of batch: ClassifiedBatch, coding: RowKeyCoding) -> CollectionDifference<ManagedObjectID>? {
        var changes: [CollectionDifference<ManagedObjectID>.Change] = []
        for change in batch.rowChanges + batch.identifierChanges {
            let from = change.from?.row
            let to = change.to?.row ?? (change.type == .update ? from : nil)
            let isSameObject = change.oldRowKey != nil && change.oldRowKey == change.newRowKey
            if let from, let oldKey = change.oldRowKey {
                changes.append(.remove(offset: from, element: coding.objectID(for: oldKey), associatedWith: isSameObject ? to : nil))
            }
            if let to, let newKey = change.newRowKey {
                changes.append(.insert(offset: to, element: coding.objectID(for: newKey), associatedWith: isSameObject ? from : nil))
            }
        }
        let difference = CollectionDifference(changes)
        if difference == nil { Log.context.error("a fetched results controller made an inconsistent difference; call performFetch() to reload it") }
        return difference
    }
}
