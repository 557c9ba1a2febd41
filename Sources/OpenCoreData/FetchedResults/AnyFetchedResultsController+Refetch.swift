/// The fallback when a controller cannot know what changed: its context's history token expired
/// (pruned, deleted, or written with history off), so the changes since cannot be read one by
/// one (``ContextEvent/storeChangesMissed``). The controller fetches again, once, and reports the
/// way from what it showed to the fresh results as one batch, valid for a list, through the same
/// path a failed batch catches up by (`AnyFetchedResultsController+Recovery.swift`); then it
/// follows changes again.
extension AnyFetchedResultsController {
    /// Fetches the results again and delivers the difference from what the controller showed as
    /// one batch, every shown row counted as possibly updated. A controller that has not fetched
    /// yet does nothing. If the fetch fails, the failure is reported as for a batch that could not
    /// be computed, and the controller tries again at the next change.
    func refetchReportingDifference() {
        guard engine != nil else { return }
        var staleness = self.staleness ?? Staleness(error: FetchedResultsError(
            FetchedResultsError.changeProcessingFailed,
            "a fetched results controller missed changes it cannot read one by one (its history token expired); it fetches again"))
        staleness.missedEverything = true
        self.staleness = staleness
        catchUp()
    }
}
