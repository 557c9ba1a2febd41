extension ManagedObjectContext {
    /// Stored values of objects as this context has seen them: the parent store's values, with
    /// saves committed by other contexts but not merged here yet taken back out (their
    /// pre-images put back), so that values read now agree with values read before those saves.
    /// A fetched results controller compares rows it never loaded this way.
    func snapshotsAsSeen(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        try parentSnapshots(for: ids)
    }
}
