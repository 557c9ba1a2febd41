/// How a row of one concrete entity becomes a ``RowSnapshot``: for each slot, the select-list
/// column to read and what it holds, worked out once per entity when the store loads. Decoding a
/// row then reads an array, where it looked up two tables per row and cast every property.
final class SQLiteRowDecodePlan: Sendable {
    enum Step: Sendable {
        /// A to-many or transient slot: no column.
        case none
        /// An attribute's column; `mayBeInFile` for binary values that may be kept in a file.
        case attribute(column: Int, type: AttributeType, attribute: AttributeDescription, mayBeInFile: Bool)
        /// A to-one's key column and its entity-code column.
        case toOne(column: Int, codeColumn: Int)
    }

    let entity: EntityDescription
    let steps: [Step]

    /// The plan for the whole select list (``SQLiteStoreBackend/selectList(_:alias:)``).
    convenience init(entity: EntityDescription, schema: SQLiteSchema) {
        self.init(entity: entity, schema: schema, slots: nil, position: { $0 })
    }

    /// `position` gives a table column's place in the select list after the three bookkeeping
    /// columns; slots outside `slots` (when given) read nothing.
    private init(entity: EntityDescription, schema: SQLiteSchema, slots: Set<Int>?, position: (Int) -> Int?) {
        self.entity = entity
        let columns = schema.columnIndexBySlot[ObjectIdentifier(entity)] ?? []
        let codeColumns = schema.entityCodeColumnBySlot[ObjectIdentifier(entity)] ?? []
        steps = entity.slots.map { property in
            let slot = property.slot
            guard slots?.contains(slot) ?? true else { return .none }
            // Select-list positions: `_pk`, `_entity` and `_version` come first.
            guard slot < columns.count, let column = columns[slot].flatMap(position).map({ $0 + 3 }) else { return .none }
            if let attribute = property as? AttributeDescription {
                return .attribute(column: column, type: attribute.attributeType, attribute: attribute,
                                  mayBeInFile: attribute.attributeType == .binaryDataAttributeType)
            }
            guard slot < codeColumns.count, let codeColumn = codeColumns[slot].flatMap(position) else { return .none }
            return .toOne(column: column, codeColumn: codeColumn + 3)
        }
    }

    /// A plan that reads only `slots` of `entity`, and the table columns (indexes into the
    /// table's columns, ascending) its select list holds after the bookkeeping ones; nil when a
    /// slot may hold a value kept in a file, which only a whole row decodes.
    static func projection(of entity: EntityDescription, slots: Set<Int>,
                           schema: SQLiteSchema) -> (plan: SQLiteRowDecodePlan, columns: [Int])? {
        let columnBySlot = schema.columnIndexBySlot[ObjectIdentifier(entity)] ?? []
        let codeColumnBySlot = schema.entityCodeColumnBySlot[ObjectIdentifier(entity)] ?? []
        var wanted: Set<Int> = []
        for slot in slots where slot < entity.slots.count {
            let property = entity.slots[slot]
            if (property as? AttributeDescription)?.attributeType == .binaryDataAttributeType { return nil }
            if slot < columnBySlot.count, let column = columnBySlot[slot] { wanted.insert(column) }
            if slot < codeColumnBySlot.count, let column = codeColumnBySlot[slot] { wanted.insert(column) }
        }
        let columns = wanted.sorted()
        let place = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        return (SQLiteRowDecodePlan(entity: entity, schema: schema, slots: slots, position: { place[$0] }), columns)
    }
}
