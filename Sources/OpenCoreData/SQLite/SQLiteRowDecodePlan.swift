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

    init(entity: EntityDescription, schema: SQLiteSchema) {
        self.entity = entity
        let columns = schema.columnIndexBySlot[ObjectIdentifier(entity)] ?? []
        let codeColumns = schema.entityCodeColumnBySlot[ObjectIdentifier(entity)] ?? []
        steps = entity.slots.map { property in
            let slot = property.slot
            // Select-list positions: `_pk`, `_entity` and `_version` come first.
            guard slot < columns.count, let column = columns[slot].map({ $0 + 3 }) else { return .none }
            if let attribute = property as? AttributeDescription {
                return .attribute(column: column, type: attribute.attributeType, attribute: attribute,
                                  mayBeInFile: attribute.attributeType == .binaryDataAttributeType)
            }
            guard slot < codeColumns.count, let codeColumn = codeColumns[slot] else { return .none }
            return .toOne(column: column, codeColumn: codeColumn + 3)
        }
    }
}
