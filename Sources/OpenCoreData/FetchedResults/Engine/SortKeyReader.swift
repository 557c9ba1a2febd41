/// Sort keys of result rows, as the results are ordered by them: from the rows a batch is taking
/// out (their old keys), from keys read before, from objects in memory (ignoring changes not yet
/// processed), or from the store, many rows per query. The controller keeps no keys for rows it
/// never compared; a small cache keeps the keys it did, so the first steps of every binary
/// search cost nothing after the first.
final class SortKeyReader {
    typealias Key = [PropertyValue]

    let sortKeys: [ResolvedSortKey]
    let coding: RowKeyCoding
    let context: ManagedObjectContext
    /// The keys of rows the current batch takes out, as they were when the rows were placed.
    var batchOldKeys: [Int64: Key] = [:]
    private var recent: [Int64: Key] = [:]
    private var older: [Int64: Key] = [:]
    /// Queries made for keys, for tests and the benchmark.
    private(set) var storeReads = 0

    /// Keys kept per generation; the cache holds at most two generations.
    private static let generationSize = 1 << 15

    init(sortKeys: [ResolvedSortKey], coding: RowKeyCoding, context: ManagedObjectContext) {
        self.sortKeys = sortKeys
        self.coding = coding
        self.context = context
    }

    /// A key known without reading anything.
    func knownKey(of rowKey: Int64) -> Key? {
        batchOldKeys[rowKey] ?? recent[rowKey] ?? older[rowKey]
    }

    func remember(_ key: Key, for rowKey: Int64) {
        if recent.count >= Self.generationSize {
            older = recent
            recent = [:]
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

    /// The keys of these rows; rows the store no longer has are left out.
    func keys(of rowKeys: [Int64]) throws -> [Int64: Key] {
        var result: [Int64: Key] = [:]
        var unread: [ManagedObjectID] = []
        for rowKey in rowKeys where result[rowKey] == nil {
            if let key = knownKey(of: rowKey) {
                result[rowKey] = key
            } else if let key = keyInMemory(of: coding.objectID(for: rowKey)) {
                remember(key, for: rowKey)
                result[rowKey] = key
            } else {
                unread.append(coding.objectID(for: rowKey))
            }
        }
        guard !unread.isEmpty else { return result }
        storeReads += 1
        for snapshot in try context.snapshotsAsSeen(for: unread) {
            guard let rowKey = coding.rowKey(for: snapshot.objectID) else { continue }
            let key = values(in: snapshot)
            remember(key, for: rowKey)
            result[rowKey] = key
        }
        return result
    }

    /// The key of a registered object from its values in memory, leaving out changes made since
    /// pending changes were last processed; nil if the object's values are not in memory.
    private func keyInMemory(of id: ManagedObjectID) -> Key? {
        guard let object = context.registeredObject(for: id) else { return nil }
        if object.state.isFault {
            guard case .snapshot(let snapshot)? = object.faultSource else { return nil }
            return values(in: snapshot)
        }
        return processedValues(of: object)
    }

    /// An object's key as of the last processed changes.
    func processedValues(of object: ManagedObject) -> Key {
        sortKeys.map { key in
            guard let first = key.path.steps.first, let slot = Self.slot(of: first), let old = object.eventValues[slot] else {
                return ManagedObjectContext.sortValue(key, of: object)
            }
            switch (first, old) {
            case (.attribute, .attribute(let value)):
                return value
            case (.toOne, .toOne(let destination)):
                return destination.map { Self.value(of: key, from: $0, skippingFirst: true) } ?? .null
            default:
                return ManagedObjectContext.sortValue(key, of: object)
            }
        }
    }

    /// An object's key as it is now.
    func currentValues(of object: ManagedObject) -> Key {
        sortKeys.map { ManagedObjectContext.sortValue($0, of: object) }
    }

    /// A key from stored values: attributes of the row itself are read from it; key paths through
    /// relationships follow the related objects in this context.
    func values(in snapshot: RowSnapshot) -> Key {
        sortKeys.map { key in
            switch key.path.steps.first {
            case .attribute(let attribute)?:
                return snapshot.value(at: attribute.slot)
            case .toOne(let relationship)?:
                guard let id = snapshot.value(at: relationship.slot).objectID else { return .null }
                return Self.value(of: key, from: context.object(with: id), skippingFirst: true)
            default:
                return .null
            }
        }
    }

    private static func slot(of step: ResolvedKeyPath.Step) -> Int? {
        switch step {
        case .attribute(let attribute): attribute.slot
        case .toOne(let relationship): relationship.slot
        default: nil
        }
    }

    private static func value(of key: ResolvedSortKey, from object: ManagedObject, skippingFirst: Bool) -> PropertyValue {
        var current: ManagedObject? = object
        for step in key.path.steps.dropFirst(skippingFirst ? 1 : 0) {
            switch step {
            case .toOne(let relationship): current = current?.toOneValue(at: relationship.slot)
            case .attribute(let attribute): return current?.attributeValue(at: attribute.slot) ?? .null
            default: return .null
            }
        }
        return .null
    }

    /// Whether a row sorts before another: by the sort keys, then by the stores' tie-break.
    func precedes(_ lhs: Key, _ lhsRow: Int64, _ rhs: Key, _ rhsRow: Int64) -> Bool {
        for (index, key) in sortKeys.enumerated() {
            let order = key.compare(lhs[index], rhs[index])
            if order != 0 { return order < 0 }
        }
        return RowKeyCoding.tieBreakPrecedes(lhsRow, rhsRow)
    }
}
