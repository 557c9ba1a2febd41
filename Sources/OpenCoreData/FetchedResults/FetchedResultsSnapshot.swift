/// The controller's contents by object ID: the value Core Data delivers as a diffable data source
/// snapshot, which does not exist on Linux. Build a list from it, or diff two of them.
///
/// ```swift
/// func controller(_ controller: AnyFetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {
///     for section in snapshot.sectionIdentifiers {
///         print(section, snapshot.itemIdentifiers(inSection: section).count)
///     }
/// }
/// ```
public struct FetchedResultsSnapshot: Sendable, Equatable {
    /// The section identifier of an unsectioned controller, as Core Data uses it.
    public static let unsectionedIdentifier = "d69e6c783a242772974cfc99189691b88e9d37c3"

    /// The sections' names (``unsectionedIdentifier`` for an unsectioned controller), in order.
    public let sectionIdentifiers: [String]
    private let items: [[ManagedObjectID]]
    /// Objects updated or moved in the batch that produced the snapshot: redraw their rows.
    public let reloadedItemIdentifiers: [ManagedObjectID]

    public init(sections: [(identifier: String, items: [ManagedObjectID])], reloadedItemIdentifiers: [ManagedObjectID] = []) {
        sectionIdentifiers = sections.map(\.identifier)
        items = sections.map(\.items)
        self.reloadedItemIdentifiers = reloadedItemIdentifiers
    }

    /// The objects of a section, in order; empty for an unknown section.
    public func itemIdentifiers(inSection identifier: String) -> [ManagedObjectID] {
        sectionIdentifiers.firstIndex(of: identifier).map { items[$0] } ?? []
    }

    /// Every object, section after section.
    public var itemIdentifiers: [ManagedObjectID] { items.flatMap { $0 } }

    public var numberOfSections: Int { sectionIdentifiers.count }
    public var numberOfItems: Int { items.reduce(0) { $0 + $1.count } }

    /// The items of each section, in section order.
    public var itemsBySection: [[ManagedObjectID]] { items }

    public static func == (lhs: FetchedResultsSnapshot, rhs: FetchedResultsSnapshot) -> Bool {
        lhs.sectionIdentifiers == rhs.sectionIdentifiers && lhs.items == rhs.items
            && Set(lhs.reloadedItemIdentifiers) == Set(rhs.reloadedItemIdentifiers)
    }
}
