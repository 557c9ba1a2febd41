import Foundation
import OpenCoreData

/// A real SQLite store whose queries can be made to fail, as a disk error or a damaged page
/// would make them fail: the store type `FailingReadsSQLite`. Saves and faulting (reading rows
/// by ID) always work; fetches, counts and the controller's sort-key reads fail while
/// ``FailingReads/isFailing`` is set.
final class FailingReads: @unchecked Sendable {
    static let storeType = "FailingReadsSQLite"

    struct InjectedFailure: Error, CustomStringConvertible {
        var description: String { "disk I/O error (injected by the test)" }
    }

    private let failing = NSLock()
    private var failingNow = false
    /// How many reads failed.
    private(set) var failures = 0

    var isFailing: Bool {
        get { failing.withLock { failingNow } }
        set { failing.withLock { failingNow = newValue } }
    }

    func check() throws {
        try failing.withLock {
            guard failingNow else { return }
            failures += 1
            throw InjectedFailure()
        }
    }

    private static let byStorePath = NSLock()
    nonisolated(unsafe) private static var switches: [String: FailingReads] = [:]

    /// The switch of the store at `url`, registering the store type on first use.
    static func forStore(at url: URL) -> FailingReads {
        byStorePath.withLock {
            if switches.isEmpty {
                PersistentStoreCoordinator.registerStoreType(storeType) { description in
                    let sqlite = PersistentStoreDescription(url: description.url ?? URL(fileURLWithPath: "/nonexistent"))
                    return FailingReadsBackend(wrapping: try PersistentStoreCoordinator.makeBackend(for: sqlite),
                                               switch: FailingReads.forStore(at: sqlite.url!))
                }
            }
            if let existing = switches[url.path] { return existing }
            let created = FailingReads()
            switches[url.path] = created
            return created
        }
    }
}

/// The backend of ``FailingReads``: SQLite's, with reads that check the switch first.
final class FailingReadsBackend: PersistentStoreBackend, @unchecked Sendable {
    private let store: any PersistentStoreBackend
    private let reads: FailingReads

    init(wrapping store: any PersistentStoreBackend, switch reads: FailingReads) {
        self.store = store
        self.reads = reads
    }

    func load(model: ManagedObjectModel) throws -> String { try store.load(model: model) }

    func snapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot] { try store.snapshots(for: ids) }

    func relatedObjectIDs(of ids: [ManagedObjectID], through relationship: RelationshipDescription) throws -> [ManagedObjectID: [ManagedObjectID]] {
        try store.relatedObjectIDs(of: ids, through: relationship)
    }

    func fetch(_ fetch: StoreFetch) throws -> StoreFetchResult {
        try reads.check()
        return try store.fetch(fetch)
    }

    func primaryKeys(_ fetch: StoreFetch) throws -> [Int64]? {
        try reads.check()
        return try store.primaryKeys(fetch)
    }

    func count(_ fetch: StoreFetch) throws -> Int? {
        try reads.check()
        return try store.count(fetch)
    }

    func sectionCounts(_ fetch: StoreFetch, groupedBy key: ResolvedSortKey) throws -> [SectionCount]? {
        try reads.check()
        return try store.sectionCounts(fetch, groupedBy: key)
    }

    func readingAttributes<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                              _ body: (_ read: ([Int64]) throws -> [[PropertyValue]?], _ generation: () throws -> Int64,
                                        _ history: (HistoryStart) throws -> [HistoryTransactionRecord]) throws -> T) throws -> T {
        try store.readingAttributes(of: entity, attributes) { read, generation, history in
            try withoutActuallyEscaping(read) { read in
                try withoutActuallyEscaping(history) { history in
                    try withoutActuallyEscaping(generation) { generation in
                        try body({ keys in
                            try reads.check()
                            return try read(keys)
                        }, generation, history)
                    }
                }
            }
        }
    }

    func generation() throws -> Int64 { try store.generation() }

    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        try store.allocatePrimaryKeys(for: entity, count: count)
    }

    func save(_ request: SaveRequest) throws -> SaveOutcome { try store.save(request) }

    func close() { store.close() }
}
