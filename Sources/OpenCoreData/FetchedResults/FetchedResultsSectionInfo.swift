/// A section of a fetched results controller: Core Data's `NSFetchedResultsSectionInfo`.
public protocol FetchedResultsSectionInfo {
    /// The section's name: the section key's value as text; `""` for nil and for the one section
    /// of an unsectioned controller.
    var name: String { get }
    /// The section's index title, or nil.
    var indexTitle: String? { get }
    /// How many objects the section holds, without creating them.
    var numberOfObjects: Int { get }
    /// The section's objects (they are created, as faults, when this is read).
    var objects: [Any]? { get }
}
