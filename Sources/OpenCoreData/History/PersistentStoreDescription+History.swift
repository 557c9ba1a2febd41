import Foundation

/// The store option that turns persistent history tracking on or off (Core Data's
/// `NSPersistentHistoryTrackingKey`, same raw value): a `Bool` or an `NSNumber`.
///
/// History is on by default for SQLite stores and off for in-memory ones. Set the option to
/// `false` to stop recording: see ``PersistentStoreDescription/isPersistentHistoryTrackingEnabled``
/// for what that does to existing tokens.
public let PersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"

/// The store option that makes the coordinator post ``PersistentStoreRemoteChange`` after each
/// commit to its store (Core Data's `NSPersistentStoreRemoteChangeNotificationPostOptionKey`,
/// same raw value): a `Bool` or an `NSNumber`. Off by default.
public let PersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"

extension PersistentStoreDescription {
    /// The option key of ``persistentHistoryRetention``.
    static let persistentHistoryRetentionKey = "OpenCoreData.PersistentHistoryRetention"

    /// Whether the store records every committed save in its persistent history
    /// (``PersistentHistoryTrackingKey``). True by default for SQLite stores (and other store
    /// types), false for in-memory ones.
    ///
    /// Core Data opens a store that once tracked history read-only when tracking is off. Here the
    /// store opens as usual and stops recording. Commits made while it does not record leave a
    /// gap in the history, and every token from before a gap is expired: fetching history after
    /// it throws ``PersistentHistoryError/expiredToken``, since that history would miss them.
    /// History already recorded stays until the retention rule or
    /// ``PersistentHistoryChangeRequest/deleteHistory(before:)-(Date)`` removes it, and can still
    /// be fetched from the start or by date. Turning tracking on again starts recording with the
    /// next commit; tokens taken after the last unrecorded commit are valid.
    public var isPersistentHistoryTrackingEnabled: Bool {
        get { Self.bool(options[PersistentHistoryTrackingKey]) ?? (type != InMemoryStoreType) }
        set { setOption(newValue, forKey: PersistentHistoryTrackingKey) }
    }

    /// Whether the coordinator posts ``PersistentStoreRemoteChange`` after each commit to the store
    /// (``PersistentStoreRemoteChangeNotificationPostOptionKey``). False by default.
    public var postsPersistentStoreRemoteChangeNotifications: Bool {
        get { Self.bool(options[PersistentStoreRemoteChangeNotificationPostOptionKey]) ?? false }
        set { setOption(newValue, forKey: PersistentStoreRemoteChangeNotificationPostOptionKey) }
    }

    /// How long the store keeps its history: ``PersistentHistoryRetention/standard`` (7 days,
    /// readers held for a day) unless set.
    public var persistentHistoryRetention: PersistentHistoryRetention {
        get { options[Self.persistentHistoryRetentionKey] as? PersistentHistoryRetention ?? .standard }
        set { setOption(newValue, forKey: Self.persistentHistoryRetentionKey) }
    }

    /// An option given as `Bool` or `NSNumber`, as Core Data code passes them.
    static func bool(_ option: (any Sendable)?) -> Bool? {
        switch option {
        case let flag as Bool: flag
        case let number as NSNumber: number.boolValue
        default: nil
        }
    }
}

extension PersistentHistorySettings {
    /// The settings a store description gives to a store that records history unless told not
    /// to (`recordsByDefault`) or only when told to.
    package init(description: PersistentStoreDescription, recordsByDefault: Bool) {
        self.init(isRecording: PersistentStoreDescription.bool(description.options[PersistentHistoryTrackingKey]) ?? recordsByDefault,
                  retention: description.persistentHistoryRetention,
                  postsRemoteChangeNotifications: description.postsPersistentStoreRemoteChangeNotifications)
    }
}
