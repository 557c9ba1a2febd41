import Foundation

/// Paging a live window: the request's `fetchOffset` or `fetchLimit` changed, and the controller
/// moves to the new window with one batch instead of a fetch.
extension AnyFetchedResultsController {
    /// Shows the rows the request's `fetchOffset` and `fetchLimit` select now, reporting the
    /// change from the rows shown before as one change batch: rows that leave the window are
    /// deleted, rows that enter it inserted.
    ///
    /// ```swift
    /// controller.fetchRequest.fetchLimit += 50   // the next page, below the rows shown
    /// try controller.applyFetchWindow()          // one batch: up to 50 inserts at the end
    /// ```
    ///
    /// A window that stays inside the rows the controller keeps (the rows before the window and
    /// about a window's worth after it, see ``keepsFetchWindow``) reads nothing; a wider one
    /// reads the identifiers of the result's first rows again, and the keys and objects of the
    /// rows that enter. Without a live window (``keepsFetchWindow`` false, or a controller
    /// fetched without a window), the controller fetches again and reports the difference.
    ///
    /// - Throws: ``FetchedResultsError/fetchDuringChangeDelivery`` when called from a delegate
    ///   callback; ``FetchedResultsError/notFetched`` before ``performFetch()``; the store's
    ///   errors, after which the controller shows what it showed before.
    public func applyFetchWindow() throws {
        source.assertOnQueue()
        guard !isDeliveringChanges else {
            throw FetchedResultsError(FetchedResultsError.fetchDuringChangeDelivery,
                                      "applyFetchWindow() was called while the controller was reporting changes; call it after controllerDidChangeContent returns")
        }
        guard let engine else {
            throw FetchedResultsError(FetchedResultsError.notFetched, "applyFetchWindow() needs a controller that has fetched; call performFetch() first")
        }
        let window = currentRequest().window()
        guard engine.window != nil, keepsFetchWindow, window.offset > 0 || window.limit > 0 else {
            try refetchReportingWindowChange()
            return
        }
        guard let batch = try engine.prepareWindowChange(to: window) else { return }
        isDeliveringChanges = true
        defer { isDeliveringChanges = false }
        deliver(batch.classified, objects: batch.objects, from: engine.index, coding: engine.coding) { [unowned self] in
            engine.apply(batch) { [unowned self] in resolvedIndexTitle(forSectionName: $0) }
        }
        writeCacheIfTracking()
    }

    /// A fresh fetch, reported as the difference from the rows shown: what catching up after a
    /// failed batch does, with no row taken as changed.
    private func refetchReportingWindowChange() throws {
        staleness = Staleness(error: FetchedResultsError(FetchedResultsError.changeProcessingFailed,
                                                         "the controller's window changed without a live window to move"))
        catchUp()
        // A failed fetch leaves the controller catching up at the next change, as after any
        // batch that failed.
        if let staleness { throw staleness.error }
    }
}
