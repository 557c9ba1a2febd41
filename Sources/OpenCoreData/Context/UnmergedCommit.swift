/// A commit an automatically merging root context has been given but has not merged yet: a save
/// of another context of its coordinator, or commits made elsewhere (see ``StoreChangeFeed``).
/// Until it is merged, rows the context reads from the store are taken back to what they were
/// before it (see ``ManagedObjectContext/snapshotsAsSeen(for:)``).
enum UnmergedCommit: Sendable {
    case save(SavedChanges, inserted: Set<ManagedObjectID>)
    case store(StoreChange, inserted: Set<ManagedObjectID>)

    init(_ save: SavedChanges) {
        self = .save(save, inserted: Set(save.inserted.map(\.objectID)))
    }

    init(_ change: StoreChange) {
        self = .store(change, inserted: Set(change.inserted))
    }

    /// What the row of `id` was before this commit, as far as the commit tells.
    fileprivate enum RowBefore {
        /// The commit made the row.
        case absent
        /// The whole row.
        case row(RowSnapshot)
        /// The attributes the commit overwrote, by slot.
        case slots([Int: PropertyValue])
    }

    /// The rows the commit made, changed or deleted: those whose values before it it tells.
    fileprivate var touchedIDs: Set<ManagedObjectID> {
        switch self {
        case .save(let save, let inserted): inserted.union(save.preImages.keys)
        case .store(let change, let inserted): inserted.union(change.priorValues.keys)
        }
    }

    fileprivate func rowBefore(_ id: ManagedObjectID) -> RowBefore? {
        switch self {
        case .save(let save, let inserted):
            if inserted.contains(id) { return .absent }
            return save.preImages[id].map(RowBefore.row)
        case .store(let change, let inserted):
            if inserted.contains(id) { return .absent }
            guard let prior = change.priorValues[id] else { return nil }
            var slots: [Int: PropertyValue] = [:]
            for (name, value) in prior {
                if let slot = id.entity.slotByName[name] { slots[slot] = value }
            }
            return .slots(slots)
        }
    }
}

/// The commits a context has been given and not merged yet, oldest first, indexed by the rows
/// they touch: a read takes back only the commits of its rows, so that its cost does not grow
/// with how far behind the context runs (a reader behind by a hundred 500-row commits would
/// otherwise look for each row it reads in each of them).
struct UnmergedCommits: Sendable {
    /// Each commit with the rows it touches, worked out once for joining and leaving.
    private var commits: [(commit: UnmergedCommit, touched: Set<ManagedObjectID>)] = []
    /// The number of the oldest commit; later ones follow on.
    private var firstNumber = 0
    /// The numbers of the commits that touch each row, ascending.
    private var touching: [ManagedObjectID: [Int]] = [:]

    var isEmpty: Bool { commits.isEmpty }

    mutating func append(_ commit: UnmergedCommit) {
        let number = firstNumber + commits.count
        let touched = commit.touchedIDs
        commits.append((commit, touched))
        for id in touched { touching[id, default: []].append(number) }
    }

    /// Takes out the oldest commit; nil when there is none.
    mutating func removeFirst() -> UnmergedCommit? {
        guard !commits.isEmpty else { return nil }
        let (commit, touched) = commits.removeFirst()
        for id in touched {
            guard var numbers = touching[id] else { continue }
            numbers.removeFirst()
            touching[id] = numbers.isEmpty ? nil : numbers
        }
        firstNumber += 1
        return commit
    }

    /// Whether any of these commits made, changed or deleted the row of `id`.
    func touch(_ id: ManagedObjectID) -> Bool {
        touching[id] != nil
    }

    /// The row of `id` as it was before these commits: `now` (nil if the store has no row) with
    /// each value the earliest of them overwrote put back; nil when the first of them to touch
    /// the row made it.
    func rowBefore(_ id: ManagedObjectID, now: RowSnapshot?) -> RowSnapshot? {
        var row = now
        var settled = Set<Int>()
        for number in touching[id] ?? [] {
            switch commits[number - firstNumber].commit.rowBefore(id) {
            case nil:
                continue
            case .absent:
                return settled.isEmpty ? nil : row
            case .row(let before):
                guard settled.isEmpty else {
                    row = Self.filling(row, from: before.values, except: settled, id: id)
                    return row
                }
                return before
            case .slots(let values):
                var filled = row ?? RowSnapshot(objectID: id, values: [PropertyValue](repeating: .null, count: id.entity.slots.count), version: 0)
                for (slot, value) in values where slot < filled.values.count && settled.insert(slot).inserted {
                    filled.values[slot] = value
                }
                row = filled
            }
        }
        return row
    }

    private static func filling(_ row: RowSnapshot?, from values: [PropertyValue], except settled: Set<Int>, id: ManagedObjectID) -> RowSnapshot {
        var filled = row ?? RowSnapshot(objectID: id, values: values, version: 0)
        for slot in values.indices where slot < filled.values.count && !settled.contains(slot) {
            filled.values[slot] = values[slot]
        }
        return filled
    }
}
