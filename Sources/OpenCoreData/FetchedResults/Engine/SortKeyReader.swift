/// Sort keys of result rows, as the results are ordered by them: from the rows a batch is taking
/// out (their old keys), from keys read before, from objects in memory (ignoring changes not yet
/// processed), or from the store, many rows per query. The controller keeps no keys for rows it
/// never compared; a cache bounded by the result's size keeps the keys it did, so the rows every
/// search starts with (the first rows of the index's chunks) cost nothing after the first batch.
final class SortKeyReader {
    typealias Key = [PropertyValue]

    let sortKeys: [ResolvedSortKey]
    let coding: RowKeyCoding
    let source: ResultsSource
    /// The keys of rows the current batch takes out, as they were when the rows were placed.
    var batchOldKeys: [Int64: Key] = [:]
    /// Queries made for keys, for tests and the benchmark.
    private(set) var storeReads = 0

    private let orders: [(comparison: FetchSortDescriptor.Comparison, ascending: Bool)]
    /// The attributes the keys are, when every key is a stored attribute of the fetched entity:
    /// then keys are read column by column, in one read transaction per search.
    private let storedAttributes: [AttributeDescription]?
    private var recent: [Int64: Key] = [:]
    private var older: [Int64: Key] = [:]
    private var generationSize: Int
    /// The store reader of the search in progress, if any.
    private var session: (([ManagedObjectID]) throws -> [[PropertyValue]?])?
    /// The rows of the results now, when there are at most so many; set by the engine. A search
    /// that must read the store reads the keys of all of them when they are few
    /// (``restOfSmallResults(besides:)``).
    var resultRows: ((_ atMost: Int) -> [Int64]?)?

    init(sortKeys: [ResolvedSortKey], coding: RowKeyCoding, source: ResultsSource, resultCount: Int) {
        self.sortKeys = sortKeys
        self.coding = coding
        self.source = source
        orders = sortKeys.map { ($0.comparison, $0.ascending) }
        let attributes = sortKeys.compactMap { key -> AttributeDescription? in
            guard key.path.steps.count == 1, case .attribute(let attribute) = key.path.steps[0], attribute.isPersistent else { return nil }
            return attribute
        }
        storedAttributes = attributes.count == sortKeys.count ? attributes : nil
        generationSize = Self.generationSize(forResultCount: resultCount)
    }

    /// Two generations of about 1/32 of the rows each (between 512 and 32,768 keys): a few bytes
    /// per row, and room for every chunk's first row.
    private static func generationSize(forResultCount count: Int) -> Int {
        min(1 << 15, max(512, count / 32))
    }

    /// Fits the cache to a new result size.
    func resize(forResultCount count: Int) {
        generationSize = Self.generationSize(forResultCount: count)
    }

    // MARK: Known keys

    /// A key known without reading anything.
    func knownKey(of rowKey: Int64) -> Key? {
        if !batchOldKeys.isEmpty, let key = batchOldKeys[rowKey] { return key }
        if let key = recent[rowKey] { return key }
        guard !older.isEmpty, let key = older[rowKey] else { return nil }
        // Keys still in use move back to the recent generation, so they outlive the rotation.
        remember(key, for: rowKey)
        return key
    }

    func remember(_ key: Key, for rowKey: Int64) {
        if recent.count >= generationSize {
            older = recent
            recent = [:]
            recent.reserveCapacity(generationSize)
        }
        recent[rowKey] = key
    }

    func forget(_ rowKey: Int64) {
        recent[rowKey] = nil
        older[rowKey] = nil
    }

    func forgetAll() {
        recent = [:]
        older = [:]
        batchOldKeys = [:]
    }

    // MARK: Reading keys

    /// Runs a search: every store read inside shares one read transaction (and one lock against
    /// saves of this process), where the store allows.
    func searching<T>(_ body: () throws -> T) throws -> T {
        guard session == nil, let attributes = storedAttributes, let entity = coding.entities.first else { return try body() }
        let result = try source.readingAttributesAsSeen(of: entity, attributes) { read in
            try withoutActuallyEscaping(read) { read in
                session = read
                defer { session = nil }
                return try body()
            }
        }
        if let result { return result }
        return try body()
    }

    /// The keys of these rows, in their order; nil for a row the store no longer has.
    func keys(of rowKeys: [Int64]) throws -> [Key?] {
        var result = [Key?](repeating: nil, count: rowKeys.count)
        var unread: [(index: Int, id: ManagedObjectID)] = []
        for (index, rowKey) in rowKeys.enumerated() {
            if let key = knownKey(of: rowKey) {
                result[index] = key
                continue
            }
            let id = coding.objectID(for: rowKey)
            if let key = keyInMemory(of: id) {
                remember(key, for: rowKey)
                result[index] = key
            } else {
                unread.append((index, id))
            }
        }
        guard !unread.isEmpty else { return result }
        storeReads += 1
        if let session {
            let rest = restOfSmallResults(besides: rowKeys)
            let read = try session(unread.map(\.id) + rest.map(coding.objectID(for:)))
            for ((index, _), key) in zip(unread, read) {
                guard let key else { continue }
                remember(key, for: rowKeys[index])
                result[index] = key
            }
            for (rowKey, key) in zip(rest, read.dropFirst(unread.count)) {
                if let key { remember(key, for: rowKey) }
            }
        } else {
            let indexByID = Dictionary(unread.map { ($0.id, $0.index) }, uniquingKeysWith: { first, _ in first })
            for snapshot in try source.snapshotsAsSeen(for: unread.map(\.id)) {
                guard let index = indexByID[snapshot.objectID] else { continue }
                let key = values(in: snapshot)
                remember(key, for: rowKeys[index])
                result[index] = key
            }
            // A row asked for twice was read once, for its first place.
            for (index, _) in unread where result[index] == nil { result[index] = knownKey(of: rowKeys[index]) }
        }
        return result
    }

    /// The other rows of results small enough for the cache to hold every key, whose keys are not
    /// known: read with the keys a search needs, a few hundred rows cost about what the round
    /// trip does, and the next searches read nothing. A server keeps thousands of such small
    /// lists, and a search of one that knows no keys would otherwise read the store at every
    /// probe of every batch. Rows whose objects are in memory take their keys from there.
    private func restOfSmallResults(besides asked: [Int64]) -> [Int64] {
        guard let rows = resultRows?(generationSize) else { return [] }
        let asked = Set(asked)
        var rest: [Int64] = []
        for rowKey in rows where !asked.contains(rowKey) && knownKey(of: rowKey) == nil {
            if let key = keyInMemory(of: coding.objectID(for: rowKey)) {
                remember(key, for: rowKey)
            } else {
                rest.append(rowKey)
            }
        }
        return rest
    }

    /// The key of a registered object from its values in memory, leaving out changes made since
    /// pending changes were last processed; nil if the object's values are not in memory.
    private func keyInMemory(of id: ManagedObjectID) -> Key? {
        source.processedSortKey(sortKeys, ofRegistered: id)
    }

    // MARK: Keys of objects and rows

    /// An object's key as of the last processed changes; during the delivery of `event`, as of
    /// before it.
    func processedValues(of object: ManagedObject, before event: ContextEvent.ObjectsDidChange? = nil) -> Key {
        source.processedSortKey(sortKeys, of: object, before: event)
    }

    /// An object's key as it is now.
    func currentValues(of object: ManagedObject) -> Key {
        source.currentSortKey(sortKeys, of: object)
    }

    /// A key from stored values: attributes of the row itself are read from it; key paths through
    /// relationships follow the related objects in this context.
    func values(in snapshot: RowSnapshot) -> Key {
        source.sortKey(sortKeys, in: snapshot)
    }

    // MARK: Order

    /// Whether a row sorts before another: by the sort keys, then by the stores' tie-break.
    func precedes(_ lhs: Key, _ lhsRow: Int64, _ rhs: Key, _ rhsRow: Int64) -> Bool {
        for index in orders.indices {
            let order = ResolvedSortKey.compare(lhs[index], rhs[index], comparison: orders[index].comparison,
                                                ascending: orders[index].ascending)
            if order != 0 { return order < 0 }
        }
        return RowKeyCoding.tieBreakPrecedes(lhsRow, rhsRow)
    }
}
