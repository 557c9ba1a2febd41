/// A fetch as a store executes it: which entity's rows, in which order, which window.
package struct StoreFetch: Sendable {
    package var entity: EntityDescription
    package var includesSubentities: Bool
    /// Sort keys by slot; ties are broken by primary key ascending.
    package var sortKeys: [StoreSortKey]
    package var limit: Int
    package var offset: Int

    package init(entity: EntityDescription, includesSubentities: Bool = true, sortKeys: [StoreSortKey] = [],
                 limit: Int = 0, offset: Int = 0) {
        self.entity = entity
        self.includesSubentities = includesSubentities
        self.sortKeys = sortKeys
        self.limit = limit
        self.offset = offset
    }

    /// The entities whose rows qualify.
    package var entities: [EntityDescription] {
        includesSubentities ? entity.selfAndDescendants : [entity]
    }
}

package struct StoreSortKey: Sendable {
    package var attribute: AttributeDescription
    package var ascending: Bool
}
