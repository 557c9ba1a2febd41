/// One group of ``PersistentStoreBackend/sectionCounts(_:groupedBy:)``: a stored value of the
/// section key and how many of the fetched rows hold it.
package struct SectionCount: Sendable, Equatable {
    package var value: PropertyValue
    package var count: Int

    package init(value: PropertyValue, count: Int) {
        self.value = value
        self.count = count
    }
}
