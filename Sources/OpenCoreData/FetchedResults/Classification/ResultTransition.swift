/// The batch that takes a list from one set of results to another computed from scratch: what a
/// controller reports when it catches up by fetching again, after it could not follow changes.
///
/// Every old row is taken out and every new row placed again, and ``ChangeClassifier`` decides
/// as for any batch: rows that left are deleted, rows that came are inserted, and among rows on
/// both sides the largest set that kept its order stays (reported as an update if it may have
/// changed); the others move.
///
/// - Complexity: O((n + m) log(n + m)) for n old and m new rows.
enum ResultTransition {
    struct Row {
        var rowKey: Int64
        var sectionName: String
    }

    /// - Parameters:
    ///   - old: The sections the list shows.
    ///   - new: The rows of the new results, in order, with their section names.
    ///   - isSectioned: Whether sections come from a key path.
    ///   - mayHaveChanged: Whether a row on both sides may show other values now: it is reported
    ///     as an update (or moves), where an unchanged row that keeps its place is not reported.
    static func batch(from old: [ChangeClassifier.OldSection], rowKeys oldRowKeys: [Int64], to new: [Row],
                      isSectioned: Bool, mayHaveChanged: (Int64) -> Bool) -> ClassifiedBatch {
        let removals = oldRowKeys.enumerated().map { ChangeClassifier.Removal(rowKey: $0.element, position: $0.offset) }
        let placements = new.map { row in
            let changed = mayHaveChanged(row.rowKey)
            return ChangeClassifier.Placement(rowKey: row.rowKey, gap: 0, sectionName: row.sectionName,
                                              keysChanged: changed, reportsUpdate: changed)
        }
        var batch = ChangeClassifier(oldSections: old, isSectioned: isSectioned).classify(removals: removals, placements: placements)
        // No row's ID changes here: a row the classifier names only for that kept its place.
        batch.identifierChanges = []
        return batch
    }
}
