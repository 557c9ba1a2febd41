import Foundation

/// Grouped dictionary fetches: Core Data's `propertiesToGroupBy`, `havingPredicate` and
/// ``ExpressionDescription``s. The store groups the rows and computes the functions in its SQL
/// where it can, so that a sum over a million rows reads one value per group; otherwise the rows
/// are read and grouped here, with the same results. The having predicate, the sort descriptors
/// and the window then apply to the groups.
extension ManagedObjectContext {
    func aggregateDictionaries(_ plan: AggregateFetchPlan, _ fetch: StoreFetch) throws -> [NSDictionary] {
        var rowsFetch = fetch
        rowsFetch.sortKeys = []
        rowsFetch.limit = 0
        rowsFetch.offset = 0
        // A group's stored values: its keys, then its functions' values.
        let groups = try storeGroups(plan, rowsFetch) ?? memoryGroups(plan, rowsFetch)
        let evaluator = PredicateEvaluator()
        var results: [(values: [PropertyValue], dictionary: NSDictionary)] = []
        for group in groups {
            var values: [PropertyValue] = []
            var dictionary: [String: Any] = [:]
            for column in plan.columns {
                let (stored, boxed) = columnValue(column, of: group, plan)
                values.append(stored)
                if let boxed { dictionary[AggregateFetchPlan.name(of: column)] = boxed }
            }
            if let having = plan.having, try !evaluator.evaluate(having, on: DictionarySubject(values: dictionary)) { continue }
            results.append((values, dictionary as NSDictionary))
        }
        if !plan.sortKeys.isEmpty {
            results.sort { lhs, rhs in
                for (column, key) in plan.sortKeys {
                    let order = key.compare(lhs.values[column], rhs.values[column])
                    if order != 0 { return order < 0 }
                }
                return false
            }
        }
        let window = results.dropFirst(fetch.offset)
        return (fetch.limit > 0 ? Array(window.prefix(fetch.limit)) : Array(window)).map(\.dictionary)
    }

    /// A column's value in a group, stored and as the dictionary holds it.
    private func columnValue(_ column: AggregateFetchPlan.Column, of group: [PropertyValue],
                             _ plan: AggregateFetchPlan) -> (PropertyValue, Any?) {
        switch column {
        case .key(let key, let index):
            return (group[index], key.boxed(group[index]))
        case .function(_, let index, let resultType):
            let value = group[plan.groupKeys.count + index]
            let typed = value.isNull ? value : value.converted(to: resultType) ?? value
            return (typed, typed.boxedValue(for: resultType))
        }
    }

    /// The groups as the store computes them, in the order of their keys; nil when the store
    /// cannot (keys through relationships, a child context's view, a predicate it cannot express).
    private func storeGroups(_ plan: AggregateFetchPlan, _ fetch: StoreFetch) throws -> [[PropertyValue]]? {
        guard case .coordinator(let coordinator)? = parentStore,
              plan.groupKeys.allSatisfy({ $0.steps.count == 1 }) else { return nil }
        let request = StoreAggregateFetch(fetch: fetch, groupKeys: plan.groupKeys.map { $0.steps[0] }, functions: plan.functions)
        guard let groups = try readingStore({ try coordinator.aggregate(request) }) else { return nil }
        return Self.sortedByKeys(groups, keyCount: plan.groupKeys.count)
    }

    /// The groups computed here from the rows the fetch selects, as saved.
    private func memoryGroups(_ plan: AggregateFetchPlan, _ fetch: StoreFetch) throws -> [[PropertyValue]] {
        let rows = try matchingRows(fetch, includesPendingChanges: false).rows
        var indexByKeys: [[PropertyValue]: Int] = [:]
        var keys: [[PropertyValue]] = []
        var arguments: [[[PropertyValue]]] = []
        for row in rows {
            let groupKeys = plan.groupKeys.map { $0.storedValue(in: row, context: self) }
            let index: Int
            if let known = indexByKeys[groupKeys] {
                index = known
            } else {
                index = keys.count
                indexByKeys[groupKeys] = index
                keys.append(groupKeys)
                arguments.append(Array(repeating: [], count: plan.functions.count))
            }
            for (position, function) in plan.functions.enumerated() {
                arguments[index][position].append(row.value(at: function.property.slot))
            }
        }
        // Without grouping there is one group, even of no rows, as in SQL.
        if plan.groupKeys.isEmpty && keys.isEmpty {
            keys = [[]]
            arguments = [Array(repeating: [], count: plan.functions.count)]
        }
        let groups = zip(keys, arguments).map { groupKeys, values in
            groupKeys + zip(plan.functions, values).map { function, values in function.compute(values) }
        }
        return Self.sortedByKeys(groups, keyCount: plan.groupKeys.count)
    }

    /// Groups in ascending order of their keys, so that a fetch without sort descriptors returns
    /// them in the same order whichever way they were computed.
    private static func sortedByKeys(_ groups: [[PropertyValue]], keyCount: Int) -> [[PropertyValue]] {
        groups.sorted { lhs, rhs in
            for index in 0..<keyCount {
                let order = PropertyValue.compare(lhs[index], rhs[index])
                if order != 0 { return order < 0 }
            }
            return false
        }
    }
}
