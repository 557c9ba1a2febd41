import GRDB
import GRDBSQLite

/// Decoding the current row of a statement straight through SQLite's API: fetches and faults
/// decode every row they read, and GRDB's `DatabaseValue` for each column cost as much as the
/// rest of making the object. Rows this cannot judge alone go to ``decode(_:loaded:)``.
extension SQLiteStoreBackend {
    /// A row of `statement`'s select list (see ``selectList(_:alias:)``), `row` being the
    /// statement's current row, as ``decode(_:loaded:)`` decodes it.
    func decode(_ row: Row, of statement: Statement, loaded: Loaded) throws -> RowSnapshot? {
        switch decodeCurrentRow(of: statement.sqliteStatement, loaded: loaded) {
        case .snapshot(let snapshot): return snapshot
        case .unknownEntity: return nil
        case .needsRow: return try decode(row, loaded: loaded)
        }
    }

    private enum FastDecoding {
        case snapshot(RowSnapshot)
        case unknownEntity
        /// A bookkeeping column holds NULL or text (a damaged row, which `decode(_:loaded:)`
        /// reports), or a binary column holds text (a value kept in a file).
        case needsRow
    }

    /// A row of a select list that holds only the columns of `projection` (see
    /// ``SQLiteRowDecodePlan/projection(of:slots:schema:)``), the other slots `.null`; nil when
    /// only a whole row can be decoded (a damaged one).
    func decodeProjected(_ statement: Statement, plan projection: SQLiteRowDecodePlan, loaded: Loaded) -> RowSnapshot? {
        guard case .snapshot(let snapshot) = decodeCurrentRow(of: statement.sqliteStatement, loaded: loaded, plan: projection) else {
            return nil
        }
        return snapshot
    }

    private func decodeCurrentRow(of statement: SQLiteStatement, loaded: Loaded, plan projection: SQLiteRowDecodePlan? = nil) -> FastDecoding {
        for column: Int32 in 0...2 where sqlite3_column_type(statement, column) != SQLITE_INTEGER { return .needsRow }
        if let projection, loaded.decodePlans[sqlite3_column_int64(statement, 1)]?.entity !== projection.entity { return .needsRow }
        guard let plan = projection ?? loaded.decodePlans[sqlite3_column_int64(statement, 1)] else { return .unknownEntity }
        var values: [PropertyValue] = []
        values.reserveCapacity(plan.steps.count)
        for step in plan.steps {
            switch step {
            case .none:
                values.append(.null)
            case .attribute(let column, let type, _, let mayBeInFile):
                if mayBeInFile, sqlite3_column_type(statement, Int32(column)) == SQLITE_TEXT { return .needsRow }
                values.append(Self.columnValue(statement, Int32(column), type: type))
            case .toOne(let column, let codeColumn):
                guard sqlite3_column_type(statement, Int32(column)) == SQLITE_INTEGER else {
                    values.append(.null)
                    continue
                }
                guard sqlite3_column_type(statement, Int32(codeColumn)) == SQLITE_INTEGER else { return .needsRow }
                guard let destination = loaded.entityByCode[sqlite3_column_int64(statement, Int32(codeColumn))] else {
                    values.append(.null)
                    continue
                }
                let key = sqlite3_column_int64(statement, Int32(column))
                values.append(.object(ManagedObjectID(entity: destination, store: loaded.tag, primaryKey: key)))
            }
        }
        let id = ManagedObjectID(entity: plan.entity, store: loaded.tag, primaryKey: sqlite3_column_int64(statement, 0))
        return .snapshot(RowSnapshot(objectID: id, values: values, version: sqlite3_column_int64(statement, 2)))
    }
}
