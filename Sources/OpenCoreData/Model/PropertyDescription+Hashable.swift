extension PropertyDescription: Hashable {
    /// Descriptions are equal when they are the same description, as in Core Data (and as
    /// ``EntityDescription`` compares), so that sets of them, such as
    /// ``PersistentHistoryChange/updatedProperties``, hold each property once.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
