import Foundation

/// A store that keeps rows in memory: ``InMemoryStoreType``. It behaves as the SQLite store does
/// (versions, conflicts, ordering, join tables) and loses everything when the coordinator goes.
final class InMemoryStoreBackend: PersistentStoreBackend {
    struct Link: Hashable {
        var source: ManagedObjectID
        var destination: ManagedObjectID
    }

    struct Tables: @unchecked Sendable {
        /// Rows by root entity, then primary key.
        var rows: [ObjectIdentifier: [Int64: RowSnapshot]] = [:]
        /// Join-table links by owning relationship.
        var links: [ObjectIdentifier: Set<Link>] = [:]
        /// Ordered relationships' orders by relationship, then owner (see `StoredRelationshipOrder`).
        var orders: [ObjectIdentifier: [ManagedObjectID: [Int64]]] = [:]
        var lastKey: [ObjectIdentifier: Int64] = [:]
        /// Committed saves so far.
        var generation: Int64 = 0
        /// The persistent history, when the store records it (see InMemoryStoreBackend+History).
        var history = InMemoryHistory()
        /// When the retention rule was last applied.
        var lastPrune: Date?
    }

    let tables = Locked(Tables())
    let identifier = UUID().uuidString
    let historySettings: PersistentHistorySettings

    /// - Parameter historySettings: Whether saves are recorded in the store's persistent history
    ///   (off unless the store's description turns it on), and how long it is kept.
    init(historySettings: PersistentHistorySettings = PersistentHistorySettings(isRecording: false)) {
        self.historySettings = historySettings
    }

    func load(model: ManagedObjectModel) throws -> String { identifier }

    func close() {}

    func snapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        let tables = try readableTables()
        return ids.compactMap { id in
            tables.rows[ObjectIdentifier(id.entity.rootEntity)]?[id.key].flatMap { $0.objectID == id ? $0 : nil }
        }
    }

    /// The tables reads see: a query generation's copy, or the latest.
    private func readableTables() throws -> Tables {
        if let pinned = try readPin as? InMemoryPinnedReads { return pinned.tables }
        return tables.withLock { $0 }
    }

    /// A copy of the tables (copied on write, so it costs nothing until a save changes them).
    func pinReads() throws -> (any StoreReadPin)? {
        InMemoryPinnedReads(tables: tables.withLock { $0 })
    }

    func relatedObjectIDs(of ids: [ManagedObjectID], through relationship: RelationshipDescription) throws -> [ManagedObjectID: [ManagedObjectID]] {
        let tables = try readableTables()
        var result: [ManagedObjectID: [ManagedObjectID]] = [:]
        let orders = relationship.isOrdered ? tables.orders[ObjectIdentifier(relationship)] ?? [:] : [:]
        for id in ids {
            let related = Self.related(of: id, through: relationship, in: tables)
            result[id] = relationship.isOrdered ? StoredRelationshipOrder.arrange(related, by: orders[id] ?? []) : related
        }
        return result
    }

    private static func related(of id: ManagedObjectID, through relationship: RelationshipDescription, in tables: Tables) -> [ManagedObjectID] {
        switch relationship.storage {
        case .foreignKey:
            return []
        case .inverseForeignKey(let inverse):
            guard let inverseEntity = inverse.entity else { return [] }
            let rows = tables.rows[ObjectIdentifier(inverseEntity.rootEntity)] ?? [:]
            return rows.values
                .filter { $0.objectID.entity.isKindOf(entity: inverseEntity) && $0.value(at: inverse.slot) == .object(id) }
                .map(\.objectID).sorted { $0.key < $1.key }
        case .joinTable(let owner):
            let links = tables.links[ObjectIdentifier(owner)] ?? []
            let related = owner === relationship
                ? links.filter { $0.source == id }.map(\.destination)
                : links.filter { $0.destination == id }.map(\.source)
            return related.sorted { $0.key < $1.key }
        }
    }

    func fetch(_ fetch: StoreFetch) throws -> StoreFetchResult {
        let tables = try readableTables()
        let entities = Set(fetch.entities.map(ObjectIdentifier.init))
        var subjects = (tables.rows[ObjectIdentifier(fetch.entity.rootEntity)] ?? [:]).values
            .filter { entities.contains(ObjectIdentifier($0.objectID.entity)) }
            .map { RowSubject(row: $0, tables: tables) }
        if let predicate = fetch.predicate {
            let evaluator = PredicateEvaluator()
            subjects = try subjects.filter { try evaluator.evaluate(predicate, on: $0) }
        }
        let keys = fetch.sortKeys.map { key in subjects.map { $0.sortValue(key) } }
        let order = subjects.indices.sorted { a, b in
            for (index, key) in fetch.sortKeys.enumerated() {
                let result = key.compare(keys[index][a], keys[index][b])
                if result != 0 { return result < 0 }
            }
            return subjects[a].row.objectID.key < subjects[b].row.objectID.key
        }
        let window = order.dropFirst(fetch.offset)
        let rows = (fetch.limit > 0 ? window.prefix(fetch.limit) : window).map { subjects[$0].row }
        return StoreFetchResult(rows: Array(rows))
    }

    func count(_ fetch: StoreFetch) throws -> Int? {
        try self.fetch(fetch).ids.count
    }

    /// Grouping here would be the same walk over the rows the caller does when given nil.
    func sectionCounts(_ fetch: StoreFetch, groupedBy key: ResolvedSortKey) throws -> [SectionCount]? {
        nil
    }

    func readingAttributes<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                              _ body: (_ read: ([Int64]) throws -> [[PropertyValue]?], _ generation: () throws -> Int64,
                                        _ history: (HistoryStart) throws -> [HistoryTransactionRecord]) throws -> T) throws -> T {
        let (rows, generation) = tables.withLock { ($0.rows[ObjectIdentifier(entity.rootEntity)] ?? [:], $0.generation) }
        return try body({ keys in
            keys.map { key in rows[key].map { row in attributes.map { row.value(at: $0.slot) } } }
        }, { generation }, { start in try fetchHistory(from: start, includingChanges: true) })
    }

    func generation() throws -> Int64 {
        tables.withLock { $0.generation }
    }

    /// A stored row seen by the predicate evaluator, following relationships through the tables.
    private struct RowSubject: PredicateSubject {
        let row: RowSnapshot
        let tables: Tables

        var subjectID: ManagedObjectID? { row.objectID }

        func attributeValue(_ attribute: AttributeDescription) -> PropertyValue {
            row.value(at: attribute.slot)
        }

        func toOneSubject(_ relationship: RelationshipDescription) -> (any PredicateSubject)? {
            guard case .object(let id) = row.value(at: relationship.slot),
                  let target = tables.rows[ObjectIdentifier(id.entity.rootEntity)]?[id.key] else { return nil }
            return RowSubject(row: target, tables: tables)
        }

        func toManySubjects(_ relationship: RelationshipDescription) -> [any PredicateSubject] {
            InMemoryStoreBackend.related(of: row.objectID, through: relationship, in: tables).compactMap { id in
                tables.rows[ObjectIdentifier(id.entity.rootEntity)]?[id.key].map { RowSubject(row: $0, tables: tables) }
            }
        }

        func rawValue(forKey key: String) -> Any? { nil }

        /// The value of a sort key, following to-one relationships (a `@count` counts the
        /// to-many it ends with).
        func sortValue(_ key: ResolvedSortKey) -> PropertyValue {
            var subject: RowSubject? = self
            for step in key.path.steps {
                switch step {
                case .toOne(let relationship): subject = subject?.toOneSubject(relationship) as? RowSubject
                case .attribute(let attribute): return subject?.attributeValue(attribute) ?? .null
                case .toMany(let relationship): return subject.map { .integer(Int64($0.toManySubjects(relationship).count)) } ?? .null
                default: return .null
                }
            }
            return .null
        }
    }

    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        tables.withLock { tables in Self.allocate(&tables, entity.rootEntity, count) }
    }

    private static func allocate(_ tables: inout Tables, _ root: EntityDescription, _ count: Int) -> [Int64] {
        let last = tables.lastKey[ObjectIdentifier(root), default: 0]
        tables.lastKey[ObjectIdentifier(root)] = last + Int64(count)
        return (0..<Int64(count)).map { last + 1 + $0 }
    }

    func save(_ request: SaveRequest) throws -> SaveOutcome {
        tables.withLock { tables in
            var conflicts: [StoreConflict] = []
            func current(_ id: ManagedObjectID) -> RowSnapshot? {
                tables.rows[ObjectIdentifier(id.entity.rootEntity)]?[id.key]
            }
            for update in request.updated where current(update.snapshot.objectID)?.version != update.expectedVersion {
                conflicts.append(StoreConflict(objectID: update.snapshot.objectID, current: current(update.snapshot.objectID)))
            }
            for deletion in request.deleted where current(deletion.objectID)?.version != deletion.expectedVersion {
                conflicts.append(StoreConflict(objectID: deletion.objectID, current: current(deletion.objectID)))
            }
            guard conflicts.isEmpty else { return .conflicts(conflicts) }
            if let claims = request.constraintClaims() {
                let found = Self.constraintConflicts(claims) { tables.rows[ObjectIdentifier($0)] ?? [:] }
                if !found.isEmpty { return .constraintConflicts(found) }
            }
            var preImages: [ManagedObjectID: RowSnapshot] = [:]
            for id in request.updated.map(\.snapshot.objectID) + request.deleted.map(\.objectID) {
                preImages[id] = current(id)
            }

            let mapping = IDMapping.allocating(for: request.inserted.map(\.objectID), storeIdentifier: identifier) { root, count in
                Self.allocate(&tables, root, count)
            }
            let saved = request.replacingIDs(mapping.dictionary())
            for var row in saved.inserted {
                row.version = 1
                tables.rows[ObjectIdentifier(row.objectID.entity.rootEntity), default: [:]][row.objectID.key] = row
            }
            for update in saved.updated {
                let id = update.snapshot.objectID
                guard var row = current(id) else { continue }
                for slot in update.changedSlots { row.values[slot] = update.snapshot.value(at: slot) }
                row.version = update.expectedVersion + 1
                tables.rows[ObjectIdentifier(id.entity.rootEntity)]?[id.key] = row
            }
            for change in saved.joinChanges {
                let link = Link(source: change.source, destination: change.destination)
                if change.isInsertion {
                    tables.links[ObjectIdentifier(change.relationship), default: []].insert(link)
                } else {
                    tables.links[ObjectIdentifier(change.relationship)]?.remove(link)
                }
            }
            for change in saved.orderChanges {
                tables.orders[ObjectIdentifier(change.relationship), default: [:]][change.owner] = change.destinations.map(\.key)
            }
            let deleted = Set(saved.deleted.map(\.objectID))
            for id in deleted {
                tables.rows[ObjectIdentifier(id.entity.rootEntity)]?[id.key] = nil
            }
            if !deleted.isEmpty {
                for key in tables.links.keys {
                    tables.links[key] = tables.links[key]?.filter { !deleted.contains($0.source) && !deleted.contains($0.destination) }
                }
                for key in tables.orders.keys {
                    tables.orders[key] = tables.orders[key]?.filter { !deleted.contains($0.key) }
                }
            }
            tables.generation += 1
            let token = recordHistory(of: saved, preImages: preImages, in: &tables)
            return .committed(permanentIDs: mapping, preImages: preImages,
                              generations: CommitGenerations(before: tables.generation - 1, after: tables.generation), historyToken: token)
        }
    }
}

/// The in-memory store's reads pinned for a query generation: its tables as they were.
final class InMemoryPinnedReads: StoreReadPin {
    let tables: InMemoryStoreBackend.Tables

    init(tables: InMemoryStoreBackend.Tables) {
        self.tables = tables
    }
}
