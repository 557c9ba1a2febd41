import Foundation

/// A controller's fetch: the results' row keys in sections, without creating objects when the
/// sections come from a stored attribute.
///
/// When the section key path is the first sort key and the context shows what the store has
/// (a root context without unsaved changes), sections come from a grouped count query beside the
/// ID query. Otherwise each row's section value is read, from rows when it is a stored attribute,
/// from objects when it goes through a relationship or is transient; then a section name that
/// reappears after another one fails the fetch, as in Core Data (error 134060), on every path.
struct InitialFetch {
    let configuration: FetchedResultsConfiguration
    let source: ResultsSource
    let coding: RowKeyCoding
    let indexTitle: (String) -> String?

    private static let chunkSize = 500

    /// The rows of a fetch: the index, and a windowed controller's head.
    struct Fetched {
        var index: ResultIndex
        var head: WindowHead?
    }

    func run() throws -> Fetched {
        if let index = try groupedByCount() { return Fetched(index: index) }
        var plan = configuration.plan
        plan.identifiersOnly = true
        if let window = configuration.window {
            // The result's first rows, of which the window is a part.
            plan.offset = 0
            plan.limit = window.headFetchLimit
        }
        let result = try source.matchingRows(plan, includesPendingChanges: configuration.includesPendingChanges)
        let rowKeys = try result.ids.map(rowKey(for:))
        let head = configuration.window.map { window in
            WindowHead(window: window, rows: rowKeys, isWhole: plan.limit == 0 || rowKeys.count < plan.limit)
        }
        let shown = head?.visible ?? rowKeys.indices
        guard let section = configuration.section else {
            return Fetched(index: ResultIndex(sections: [.init(name: "", indexTitle: nil, rows: RowList(rowKeys[shown]))]), head: head)
        }
        let names = try sectionNames(of: Array(result.ids[shown]), rows: result.rows, by: section)
        return Fetched(index: try ResultIndex(sections: group(Array(rowKeys[shown]), names: names)), head: head)
    }

    // MARK: Grouped count

    private func groupedByCount() throws -> ResultIndex? {
        guard configuration.sectionIsFirstSortKey, let sortKey = configuration.plan.sortKeys.first,
              let section = configuration.section, configuration.plan.limit == 0, configuration.plan.offset == 0 else { return nil }
        var plan = configuration.plan
        plan.identifiersOnly = true
        // A single entity's row key is its primary key: the store's keys serve as they are.
        guard let read = try source.storeSections(plan, groupedBy: sortKey, includesPendingChanges: configuration.includesPendingChanges,
                                                  primaryKeys: coding.entities.count == 1) else { return nil }
        let counts = read.counts
        let rowKeys = try orderedRowKeys(read.rows)
        guard counts.reduce(0, { $0 + $1.count }) == rowKeys.count else { return nil }
        var sections: [ResultIndex.Section] = []
        var start = 0
        var previous: PropertyValue?
        var seen: Set<String> = []
        for group in counts {
            let name = section.name(of: group.value)
            let keys = rowKeys[start..<(start + group.count)]
            start += group.count
            // Groups that sort equal but are named apart may interleave (a case-insensitive
            // order of case-sensitive names): only reading every row can tell.
            if let previous, sortKey.compare(previous, group.value) == 0 { return nil }
            previous = group.value
            if sections.last?.name == name {
                for key in keys { sections[sections.count - 1].rows.insert(key, at: sections[sections.count - 1].rows.count) }
            } else {
                guard seen.insert(name).inserted else { return nil }
                sections.append(.init(name: name, indexTitle: indexTitle(name), rows: RowList(keys)))
            }
        }
        return ResultIndex(sections: sections)
    }

    /// The row keys of the fetch, in order; empty when the store leaves conditions to the
    /// caller (which the count then disowns). Primary keys serve as they are, with no object IDs
    /// made for a million rows.
    private func orderedRowKeys(_ rows: StoreOrderedRows) throws -> [Int64] {
        switch rows {
        case .primaryKeys(let keys):
            guard keys.allSatisfy({ $0 >= 0 && $0 <= RowKeyCoding.keyMask }) else { throw Self.keyTooLarge(keys.first { $0 > RowKeyCoding.keyMask }) }
            return keys
        case .objectIDs(let ids):
            return try ids.map(rowKey(for:))
        case .incomplete:
            return []
        }
    }

    // MARK: Walking the rows

    /// Each row's section name, in order.
    private func sectionNames(of allIDs: [ManagedObjectID], rows fetchedRows: [RowSnapshot], by section: SectionKeyPath) throws -> [String] {
        let rows = Dictionary(fetchedRows.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        var names: [String] = []
        names.reserveCapacity(allIDs.count)
        for start in stride(from: 0, to: allIDs.count, by: Self.chunkSize) {
            let ids = Array(allIDs[start..<min(start + Self.chunkSize, allIDs.count)])
            let missing = ids.filter { rows[$0] == nil && source.loadedObject(for: $0) == nil }
            let read = Dictionary(try storedValues(of: missing).map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            // Objects made here live until the chunk is named, so related objects load once.
            var objects: [ManagedObject] = []
            for id in ids {
                if let registered = source.loadedObject(for: id) {
                    names.append(section.name(of: section.value(of: registered)))
                } else if let row = rows[id] ?? read[id] {
                    if let value = section.value(in: row) {
                        names.append(section.name(of: value))
                    } else {
                        let object = source.object(for: row)
                        objects.append(object)
                        names.append(section.name(of: section.value(of: object)))
                    }
                } else {
                    names.append("")
                }
            }
            withExtendedLifetime(objects) {}
        }
        return names
    }

    /// Rows as the fetch saw them: the parent's view, or the store's when pending changes are
    /// left out.
    private func storedValues(of ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        guard !ids.isEmpty else { return [] }
        return try source.storedSnapshots(for: ids, includesPendingChanges: configuration.includesPendingChanges)
    }

    /// Consecutive rows with the same name form a section; a name that comes back fails.
    private func group(_ rowKeys: [Int64], names: [String]) throws -> [ResultIndex.Section] {
        var sections: [ResultIndex.Section] = []
        var seen: Set<String> = []
        var start = 0
        for index in rowKeys.indices where index == rowKeys.count - 1 || names[index + 1] != names[index] {
            let name = names[index]
            guard seen.insert(name).inserted else {
                let first = names[start...].firstIndex { $0 == name } ?? start
                throw FetchedResultsError.outOfOrder(index: first, name: name)
            }
            sections.append(.init(name: name, indexTitle: indexTitle(name), rows: RowList(rowKeys[start...index])))
            start = index + 1
        }
        return sections
    }

    private func rowKey(for id: ManagedObjectID) throws -> Int64 {
        guard let key = coding.rowKey(for: id) else { throw Self.keyTooLarge(id.key) }
        return key
    }

    static func keyTooLarge(_ key: Int64?) -> PersistentStoreError {
        PersistentStoreError(PersistentStoreError.corruptStore,
                             "a row with primary key \(key.map(String.init) ?? "?") cannot be followed by a fetched results controller: its primary key is outside 0..<2^48")
    }
}

extension FetchedResultsError {
    /// Core Data's error 134060, with its reason.
    static func outOfOrder(index: Int, name: String) -> FetchedResultsError {
        FetchedResultsError(outOfOrderSection,
                            "The fetched object at index \(index) has an out of order section name '\(name)'. Objects must be sorted by section name")
    }
}
