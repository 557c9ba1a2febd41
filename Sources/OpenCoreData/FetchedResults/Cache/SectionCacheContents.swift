/// What a fetched results controller's section cache file holds: enough to show the sections and
/// find each row without fetching, and what the cache is valid for.
package struct SectionCacheContents: Equatable, Sendable {
    /// A section as the controller shows it.
    package struct Section: Equatable, Sendable {
        package var name: String
        package var indexTitle: String?
        /// How many of ``SectionCacheContents/rowKeys`` belong to the section, after those of the
        /// sections before it.
        package var count: Int

        package init(name: String, indexTitle: String?, count: Int) {
            self.name = name
            self.indexTitle = indexTitle
            self.count = count
        }
    }

    /// An opaque canonical description of the request and model the cache was made for; the
    /// cache is valid only for exactly the same text.
    package var configuration: String
    /// The identifier of the store the rows come from.
    package var storeIdentifier: String
    /// The store generation the cache was written at; any save since invalidates it.
    package var storeGeneration: Int64
    package var sections: [Section]
    /// The primary key of every row, in order; the section counts partition it.
    package var rowKeys: [Int64]

    package init(configuration: String, storeIdentifier: String, storeGeneration: Int64,
                 sections: [Section], rowKeys: [Int64]) {
        self.configuration = configuration
        self.storeIdentifier = storeIdentifier
        self.storeGeneration = storeGeneration
        self.sections = sections
        self.rowKeys = rowKeys
    }
}
