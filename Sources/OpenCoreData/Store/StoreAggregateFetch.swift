/// A grouped fetch as a store executes it: the rows a fetch selects, grouped by the values of
/// some of their properties, with aggregate functions of others computed for each group.
package struct StoreAggregateFetch: Sendable {
    /// The function of one column a group computes.
    package struct Function: Sendable {
        package enum Kind: String, Sendable {
            case sum, average, min, max, count
        }

        package var kind: Kind
        /// A stored attribute of the fetched entity; for `count`, also a to-one relationship.
        package var property: PropertyDescription
    }

    /// The rows: entity, subentities and predicate (sort keys and window are not used).
    package var fetch: StoreFetch
    /// Stored attributes or to-one relationships of the fetched entity, whose equal values make
    /// a group; none for one group of every row.
    package var groupKeys: [PropertyDescription]
    package var functions: [Function]

    package init(fetch: StoreFetch, groupKeys: [PropertyDescription], functions: [Function]) {
        self.fetch = fetch
        self.groupKeys = groupKeys
        self.functions = functions
    }
}

extension StoreAggregateFetch.Function {
    /// The function over a group's non-nil values, as memory computes it; stores that compute
    /// it in SQL must agree (sums that do not overflow, NaN as nil, the sum of nothing 0).
    package func compute(_ values: [PropertyValue]) -> PropertyValue {
        let present = values.filter { !$0.isNull }
        switch kind {
        case .count: return .integer(Int64(present.count))
        case .sum: return PredicateEvaluator.aggregate(.sum, present)
        case .average: return PredicateEvaluator.aggregate(.avg, present)
        case .min: return PredicateEvaluator.aggregate(.min, present)
        case .max: return PredicateEvaluator.aggregate(.max, present)
        }
    }
}
