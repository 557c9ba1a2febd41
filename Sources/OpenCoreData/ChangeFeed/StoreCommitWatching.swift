/// A store whose commits by other programs can wake this process: how the ``StoreChangeFeed``
/// learns that there may be something to read, whatever the store.
///
/// The feed never trusts a wake for anything but its timing. A wake makes it read the store's
/// generation and catch every coordinator up from history, so a wake too many costs one small
/// read, and a wake lost costs latency until the next one. What each store does: SQLite watches
/// its files (``SQLiteCommitWatch``); the PostgreSQL store listens on its channel. A store that
/// does not conform (in memory) is woken only by this process's own commits.
package protocol StoreCommitWatching {
    /// Starts calling `wake`, from any thread, whenever a commit may have been made; nil when
    /// the store cannot be watched (the failure is logged, and commits of other programs are
    /// seen at this process's next commit instead).
    func watchCommits(_ wake: @escaping @Sendable () -> Void) -> (any StoreCommitWatch)?
}

/// One store's watch, held by its feed while the feed has subscribers.
package protocol StoreCommitWatch: AnyObject, Sendable {
    /// Whether a wake may come a moment before the commit it announces can be read, so that a
    /// wake that finds nothing new calls for a second look a little later (SQLite's log is written
    /// before the commit is published).
    var mayWakeBeforeCommitIsVisible: Bool { get }

    /// This process committed: the watches of other processes are told, if the commit itself
    /// does not tell them.
    func committedHere()

    /// Stops the watch; no wake comes afterwards.
    func stop()
}
