/// An index the store keeps on an entity's table, Core Data's `NSFetchIndexDescription`.
///
/// Declare one for each sort order a large fetch or fetched results controller uses, so that
/// the store reads rows in order instead of sorting them:
///
/// ```swift
/// team.indexes = [
///     FetchIndexDescription(name: "byZoneAndWins", elements: [
///         FetchIndexElementDescription(propertyName: "qualifyingZone"),
///         FetchIndexElementDescription(propertyName: "wins", ascending: false),
///         FetchIndexElementDescription(propertyName: "teamName"),
///     ]),
/// ]
/// ```
public struct FetchIndexDescription: Sendable, Hashable, Codable {
    /// The index's name, unique within the entity.
    public var name: String
    /// The indexed properties, most significant first.
    public var elements: [FetchIndexElementDescription]

    public init(name: String, elements: [FetchIndexElementDescription]) {
        self.name = name
        self.elements = elements
    }
}

/// One column of a ``FetchIndexDescription``: an attribute or to-one relationship, and its
/// direction.
public struct FetchIndexElementDescription: Sendable, Hashable, Codable {
    /// The name of the indexed attribute or to-one relationship.
    public var propertyName: String
    /// Whether the index orders this column ascending.
    public var isAscending: Bool

    public init(propertyName: String, ascending: Bool = true) {
        self.propertyName = propertyName
        self.isAscending = ascending
    }

    /// Creates an element for a property description.
    public init(property: PropertyDescription, ascending: Bool = true) {
        self.init(propertyName: property.name, ascending: ascending)
    }
}
