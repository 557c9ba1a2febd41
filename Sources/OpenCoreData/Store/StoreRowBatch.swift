/// New rows of one entity in storage form, for a store to insert in one transaction: what a
/// batch insert on an entity without uniqueness constraints hands the store. The rows lie one
/// after the other in one array, a value per slot of the entity, so that 100,000 rows cost no
/// snapshot, no values array and no temporary ID each.
package struct StoreRowBatch: Sendable {
    package let entity: EntityDescription
    /// Values per row: one per slot of ``entity``.
    package let width: Int
    /// The rows' values, row after row.
    package private(set) var values: [PropertyValue] = []
    /// How many rows there are.
    package private(set) var count = 0

    package init(entity: EntityDescription) {
        self.entity = entity
        width = entity.slots.count
    }

    /// Appends a row holding `template`'s values (one per slot); returns the position of its first
    /// value in ``values``, for ``set(_:at:)``.
    package mutating func appendRow(_ template: [PropertyValue]) -> Int {
        let start = values.count
        values.append(contentsOf: template)
        count += 1
        return start
    }

    /// Sets the value at `position` of ``values`` (a row's start plus a slot).
    package mutating func set(_ value: PropertyValue, at position: Int) {
        values[position] = value
    }

    /// The values of row `index`, by slot (the slice keeps the array's indices: add
    /// ``rowStart(_:)``).
    package func row(_ index: Int) -> ArraySlice<PropertyValue> {
        values[rowStart(index)..<(rowStart(index) + width)]
    }

    package func rowStart(_ index: Int) -> Int { index * width }
}

/// What a store reports after inserting a ``StoreRowBatch``: the primary key of each row, in
/// order, and the outcome, as a save of the rows would report it.
package struct StoreRowBatchInsertion: Sendable {
    package var keys: [Int64]
    package var outcome: SaveOutcome

    package init(keys: [Int64], outcome: SaveOutcome) {
        self.keys = keys
        self.outcome = outcome
    }
}

extension PersistentStoreBackend {
    /// Stores without a faster way insert the rows as one save of new rows.
    package func insert(_ rows: StoreRowBatch, info: HistoryTransactionInfo) throws -> StoreRowBatchInsertion {
        var request = SaveRequest()
        request.transactionInfo = info
        request.inserted.reserveCapacity(rows.count)
        for index in 0..<rows.count {
            request.inserted.append(RowSnapshot(objectID: .makeTemporary(for: rows.entity), values: Array(rows.row(index)), version: 1))
        }
        let outcome = try save(request)
        guard case .committed(let mapping, _, _, _) = outcome else { return StoreRowBatchInsertion(keys: [], outcome: outcome) }
        return StoreRowBatchInsertion(keys: mapping.replacing(inOrder: request.inserted.map(\.objectID)).map(\.key), outcome: outcome)
    }
}
