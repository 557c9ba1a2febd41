import GRDB

/// Batch updates written by one `UPDATE … WHERE … RETURNING` statement, in one immediate
/// transaction with what a save of the same rows writes: each row's version bumped (so that
/// contexts holding the rows meet an optimistic locking conflict), the generation advanced, and
/// one history change per row naming the properties set.
///
/// Computed values are checked first, by a query for a matching row whose result the attribute
/// could not hold; if there is one, the store writes nothing and declines, and the caller's row
/// by row update reports it.
extension SQLiteStoreBackend {
    func update(_ update: StoreBatchUpdate, info: HistoryTransactionInfo) throws -> StoreBatchUpdateOutcome {
        // The rows updated are listed (by the UPDATE's RETURNING clause) only for the history or
        // the result.
        let listsRows = historySettings.isRecording || update.listsIDs
        return try writeTransaction(doing: "updating \(update.fetch.entity.entityName) in a batch") { db, loaded in
            guard let statements = try SetBasedUpdate(update, listingRows: listsRows, backend: self, db, loaded: loaded),
                  try !statements.refusesSomeRow(db) else {
                return (.declined, commit: false)
            }
            try beginCountedWrites(db)
            let (count, rows) = try statements.run(db)
            guard count > 0 else { return (.committed(count: 0, ids: [], outcome: nil), commit: false) }
            let generations = try finishCountedWrites(db)
            var properties: [Int64: String] = [:]
            let token = try recordHistory(number: generations.after, db, loaded: loaded) { recorder, timestamp in
                try recorder.recordUpdates(number: generations.after, info: info, rows: rows, properties: { code in
                    if let names = properties[code] { return names }
                    let names = statements.updatedProperties(of: loaded.entityByCode[code])
                    properties[code] = names
                    return names
                }, timestamp: timestamp)
            }
            let ids = !update.listsIDs ? [] : rows.compactMap { row in
                loaded.entityByCode[row.code].map { ManagedObjectID(entity: $0, storeIdentifier: loaded.identifier, primaryKey: row.key) }
            }
            let outcome = SaveOutcome.committed(permanentIDs: IDMapping(), preImages: [:], generations: generations, historyToken: token)
            return (.committed(count: count, ids: ids, outcome: outcome), commit: true)
        }
    }
}

/// The statements of one set-based batch update: the check of computed values and the UPDATE.
private struct SetBasedUpdate {
    private let update: StoreBatchUpdate
    /// `SELECT 1 … LIMIT 1` for a matching row some computed value does not fit; nil without
    /// computed values.
    private let check: (statement: Statement, arguments: StatementArguments)?
    private let statement: Statement
    private let arguments: StatementArguments
    /// What the UPDATE returns of each row: nothing, the primary key (every row is of the
    /// fetched entity), or the entity code and the primary key.
    private let returned: Returned

    private enum Returned {
        case nothing
        /// The primary key of rows whose entity code is the one given.
        case key(code: Int64)
        case codeAndKey
    }

    /// Nil when the store cannot write the update with one statement: part of its predicate is
    /// left to memory, or the statement is beyond SQLite's limits. `listingRows` asks the UPDATE
    /// to return the rows it updates.
    init?(_ update: StoreBatchUpdate, listingRows: Bool, backend: SQLiteStoreBackend, _ db: Database,
          loaded: SQLiteStoreBackend.Loaded) throws {
        self.update = update
        returned = !listingRows ? .nothing
            : SQLiteStoreBackend.hasSingleEntity(update.fetch) ? .key(code: loaded.code(of: update.fetch.entity)) : .codeAndKey
        let filter = try backend.filter(for: update.fetch, loaded: loaded)
        guard filter.residual == nil else { return nil }
        var assignments: [String] = []
        var setArguments: [DatabaseValue] = []
        var refusals: [String] = []
        var refusalArguments: [DatabaseValue] = []
        for assignment in update.assignments {
            let attribute = assignment.attribute
            guard let column = loaded.schema.columnNames(of: attribute).first.map(quoted) else { return nil }
            switch assignment.value {
            case .constant(let value):
                assignments.append("\(column) = ?")
                setArguments.append(loaded.columnValue(0, of: attribute, storing: value))
            case .integer(let source, let operation):
                guard let sourceColumn = loaded.schema.columnNames(of: source).first.map(quoted),
                      let sourceRange = source.attributeType.integerRange, let targetRange = attribute.attributeType.integerRange else { return nil }
                let (expression, operand) = Self.expression(sourceColumn, operation)
                assignments.append("\(column) = \(expression)")
                setArguments += operand
                // The row's value must be an integer in its attribute's range, and the result an
                // integer (not an overflow's real) in the target's; or both NULL, for an optional
                // target. Anything else is left to the row by row update to judge.
                let (checked, checkedOperand) = Self.expression("t0.\(sourceColumn)", operation)
                refusals.append("""
                    NOT ((t0.\(sourceColumn) IS NULL AND \(attribute.isOptional ? 1 : 0)) \
                    OR (typeof(t0.\(sourceColumn)) = 'integer' AND t0.\(sourceColumn) BETWEEN ? AND ? \
                    AND typeof(\(checked)) = 'integer' AND \(checked) BETWEEN ? AND ?))
                    """)
                refusalArguments += [sourceRange.lowerBound.databaseValue, sourceRange.upperBound.databaseValue]
                    + checkedOperand + checkedOperand + [targetRange.lowerBound.databaseValue, targetRange.upperBound.databaseValue]
            }
        }
        assignments.append("\"_version\" = \"_version\" + 1")
        let table = quoted(filter.table.name)
        let whereClause = filter.whereClause
        let joins = filter.query.root.joinSQL
        let returning = switch returned {
        case .nothing: ""
        case .key: " RETURNING \"_pk\""
        case .codeAndKey: " RETURNING \"_entity\", \"_pk\""
        }
        // An UPDATE names one table: a predicate that joins others selects the keys first.
        let sql = joins.isEmpty
            ? "UPDATE \(table) AS t0 SET \(assignments.joined(separator: ", "))\(whereClause.sql)\(returning)"
            : "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \"_pk\" IN (SELECT t0.\"_pk\" FROM \(table) t0\(joins)\(whereClause.sql))\(returning)"
        do {
            statement = try db.makeStatement(sql: sql)
            arguments = StatementArguments(setArguments + whereClause.arguments)
            if refusals.isEmpty {
                check = nil
            } else {
                let condition = "(" + refusals.joined(separator: " OR ") + ")"
                let filtered = whereClause.sql.isEmpty ? " WHERE \(condition)" : "\(whereClause.sql) AND \(condition)"
                check = (try db.makeStatement(sql: "SELECT 1 FROM \(table) t0\(joins)\(filtered) LIMIT 1"),
                         StatementArguments(whereClause.arguments + refusalArguments))
            }
        } catch where SQLiteLimits.isExceeded(by: error) {
            return nil
        }
    }

    /// Whether a matching row gets a computed value its attribute cannot hold.
    func refusesSomeRow(_ db: Database) throws -> Bool {
        guard let check else { return false }
        return try Bool.fetchOne(check.statement, arguments: check.arguments) != nil
    }

    /// Runs the UPDATE; returns how many rows it updated and, if it lists them, the rows by entity
    /// code and primary key, in key order.
    func run(_ db: Database) throws -> (count: Int, rows: [(code: Int64, key: Int64)]) {
        switch returned {
        case .nothing:
            try statement.execute(arguments: arguments)
            return (db.changesCount, [])
        case .key(let code):
            let keys = try Int64.fetchAll(statement, arguments: arguments).sorted()
            return (keys.count, keys.map { (code, $0) })
        case .codeAndKey:
            var rows: [(code: Int64, key: Int64)] = []
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try cursor.next() {
                rows.append((try row.decode(atIndex: 0), try row.decode(atIndex: 1)))
            }
            rows.sort { $0.key < $1.key }
            return (rows.count, rows)
        }
    }

    /// The names of the properties set, in `entity`'s slot order, joined by commas, as the
    /// history records a save's update of a row of `entity`.
    func updatedProperties(of entity: EntityDescription?) -> String {
        let names = update.assignments.map(\.attribute.name)
        guard let entity else { return names.joined(separator: ",") }
        return names.sorted { (entity.property(named: $0)?.slot ?? 0) < (entity.property(named: $1)?.slot ?? 0) }
            .joined(separator: ",")
    }

    /// The SQL of an integer value: the column, or the column with the operation applied to a
    /// bound operand.
    private static func expression(_ column: String, _ operation: (operator: StoreBatchUpdate.Operator, operand: Int64)?)
        -> (sql: String, arguments: [DatabaseValue]) {
        guard let (op, operand) = operation else { return (column, []) }
        let symbol = switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        }
        return ("(\(column) \(symbol) ?)", [operand.databaseValue])
    }
}
