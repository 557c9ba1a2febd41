public import Foundation

/// How long a store keeps its persistent history, so that it does not grow forever.
///
/// A transaction is pruned once both hold:
/// - it is older than the retention ``window`` (by its timestamp), and
/// - every live reader has read it. A reader is a name a program records its position under with
///   ``PersistentStoreCoordinator/setPersistentHistoryReader(_:readUpTo:)``; it is live while it
///   has recorded a position within the ``readerTimeout``. A reader that stops (a process that
///   died) holds history no longer than that.
///
/// Pruning keeps the order of commits: it removes the oldest transactions up to the first one
/// that must stay, never one in the middle. A coordinator that writes checks for history to prune
/// when its store loads, and at most once per ``checkInterval`` as it saves, inside the save's
/// transaction. A reader whose token points into pruned history gets
/// ``PersistentHistoryError/expiredToken`` and falls back to one refetch.
///
/// ```swift
/// let description = PersistentStoreDescription(url: storeURL)
/// description.persistentHistoryRetention = PersistentHistoryRetention(window: 24 * 3600)
/// ```
public struct PersistentHistoryRetention: Sendable, Equatable {
    /// History younger than this, in seconds, is kept whatever readers have read. Default: 7 days.
    public var window: TimeInterval
    /// How long, in seconds, a reader that has not recorded a new position keeps holding history.
    /// Default: 1 day.
    public var readerTimeout: TimeInterval
    /// The least time, in seconds, between two checks for history to prune by one coordinator.
    /// Default: 60.
    public var checkInterval: TimeInterval

    /// Creates a retention rule.
    ///
    /// - Parameters:
    ///   - window: History younger than this, in seconds, is always kept.
    ///   - readerTimeout: How long a reader keeps holding history after it last recorded its
    ///     position, in seconds.
    ///   - checkInterval: The least time between two checks for history to prune, in seconds.
    public init(window: TimeInterval = 7 * 86_400, readerTimeout: TimeInterval = 86_400, checkInterval: TimeInterval = 60) {
        self.window = window
        self.readerTimeout = readerTimeout
        self.checkInterval = checkInterval
    }

    /// Seven days of history, readers held for a day, checked at most once a minute.
    public static let standard = PersistentHistoryRetention()
}

/// What a store's description says about history, resolved once when the store is made.
package struct PersistentHistorySettings: Sendable, Equatable {
    /// Whether committed saves are recorded.
    package var isRecording: Bool
    package var retention: PersistentHistoryRetention
    /// Whether the coordinator posts ``PersistentStoreRemoteChange`` notifications.
    package var postsRemoteChangeNotifications: Bool

    package init(isRecording: Bool, retention: PersistentHistoryRetention = .standard, postsRemoteChangeNotifications: Bool = false) {
        self.isRecording = isRecording
        self.retention = retention
        self.postsRemoteChangeNotifications = postsRemoteChangeNotifications
    }

    /// The cutoffs the retention rule applies as of `now`: transactions older than `windowStart`
    /// may go; readers not seen since `readersSeenSince` are no longer live.
    package func pruneBounds(now: Date) -> (windowStart: Date, readersSeenSince: Date) {
        (now.addingTimeInterval(-retention.window), now.addingTimeInterval(-retention.readerTimeout))
    }
}
