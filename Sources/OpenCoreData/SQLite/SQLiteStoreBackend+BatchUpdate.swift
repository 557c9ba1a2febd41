import GRDB

/// Batch updates written by one `UPDATE … WHERE …` statement, in one immediate transaction with
/// what a save of the same rows writes: each row's version bumped (so that contexts holding the
/// rows meet an optimistic locking conflict), the generation advanced, and one history change per
/// row naming the properties set, with the values it overwrote.
///
/// One query first reads the matching rows' keys and the values the update overwrites, and
/// whether some computed value would not fit its attribute; if one would not, the store writes
/// nothing and declines, and the caller's row by row update reports it.
extension SQLiteStoreBackend {
    func update(_ update: StoreBatchUpdate, info: HistoryTransactionInfo) throws -> StoreBatchUpdateOutcome {
        let outcome = try setBasedUpdate(update, info: info)
        if case .committed = outcome, update.assignments.contains(where: { $0.attribute.attributeType == .binaryDataAttributeType }) {
            // Values it replaced may have been kept in files.
            try sweepExternalData(loaded: loaded)
        }
        return outcome
    }

    private func setBasedUpdate(_ update: StoreBatchUpdate, info: HistoryTransactionInfo) throws -> StoreBatchUpdateOutcome {
        try writeTransaction(doing: "updating \(update.fetch.entity.entityName) in a batch") { db, loaded in
            guard let statements = try SetBasedUpdate(update, backend: self, db, loaded: loaded),
                  let rows = try statements.matchingRows(db) else {
                return (.declined, commit: false)
            }
            guard !rows.isEmpty else { return (.committed(ids: [], priorValues: [], outcome: nil), commit: false) }
            try beginCountedWrites(db)
            // The same rows, in the same transaction: anything else is a bug the row by row
            // update does not have.
            guard try statements.run(db) == rows.count else { return (.declined, commit: false) }
            let generations = try finishCountedWrites(db)
            var properties: [Int64: String] = [:]
            let token = try recordHistory(number: generations.after, db, loaded: loaded) { recorder, timestamp in
                try recorder.recordUpdates(number: generations.after, info: info, rows: rows, properties: { code in
                    if let names = properties[code] { return names }
                    let names = update.updatedProperties(of: loaded.entityByCode[code])
                    properties[code] = names
                    return names
                }, priorValueNames: update.assignments.map(\.attribute.name), timestamp: timestamp)
            }
            let ids = rows.compactMap { row in
                loaded.entityByCode[row.code].map { ManagedObjectID(entity: $0, store: loaded.tag, primaryKey: row.key) }
            }
            let outcome = SaveOutcome.committed(permanentIDs: IDMapping(), preImages: [:], generations: generations, historyToken: token)
            return (.committed(ids: ids, priorValues: rows.map(\.prior), outcome: outcome), commit: true)
        }
    }
}

/// A row a set-based update changes: its entity code, its primary key, and the values of the
/// attributes set as they were (in the order of the update's assignments).
typealias SetBasedUpdateRow = (code: Int64, key: Int64, prior: [PropertyValue])

/// The statements of one set-based batch update: the query of the matching rows and the UPDATE.
private struct SetBasedUpdate {
    private let update: StoreBatchUpdate
    /// `SELECT "_entity", "_pk", the assigned columns, refused FROM …`: refused is 1 for a row some
    /// computed value does not fit.
    private let query: (statement: Statement, arguments: StatementArguments)
    private let statement: Statement
    private let arguments: StatementArguments

    /// Nil when the store cannot write the update with one statement: part of its predicate is
    /// left to memory, or the statement is beyond SQLite's limits.
    init?(_ update: StoreBatchUpdate, backend: SQLiteStoreBackend, _ db: Database, loaded: SQLiteStoreBackend.Loaded) throws {
        self.update = update
        let filter = try backend.filter(for: update.fetch, loaded: loaded)
        guard filter.residual == nil else { return nil }
        var assignments: [String] = []
        var setArguments: [DatabaseValue] = []
        var columns: [String] = []
        var refusals: [String] = []
        var refusalArguments: [DatabaseValue] = []
        for assignment in update.assignments {
            let attribute = assignment.attribute
            guard let column = loaded.schema.columnNames(of: attribute).first.map(quoted) else { return nil }
            columns.append("t0.\(column)")
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
        let refused = refusals.isEmpty ? "0" : "(" + refusals.joined(separator: " OR ") + ")"
        // An UPDATE names one table: a predicate that joins others selects the keys first.
        let sql = joins.isEmpty
            ? "UPDATE \(table) AS t0 SET \(assignments.joined(separator: ", "))\(whereClause.sql)"
            : "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \"_pk\" IN (SELECT t0.\"_pk\" FROM \(table) t0\(joins)\(whereClause.sql))"
        do {
            query = (try db.makeStatement(sql: """
                SELECT t0."_entity", t0."_pk", \((columns + [refused]).joined(separator: ", ")) FROM \(table) t0\(joins)\(whereClause.sql)
                """), StatementArguments(refusalArguments + whereClause.arguments.map(SQLiteValueCoding.databaseValue)))
            statement = try db.makeStatement(sql: sql)
            arguments = StatementArguments(setArguments + whereClause.arguments.map(SQLiteValueCoding.databaseValue))
        } catch where SQLiteLimits.isExceeded(by: error) {
            return nil
        }
    }

    /// The rows the update changes, in key order, with the values it overwrites; nil when some
    /// computed value does not fit its row.
    func matchingRows(_ db: Database) throws -> [SetBasedUpdateRow]? {
        let types = update.assignments.map(\.attribute.attributeType)
        var rows: [SetBasedUpdateRow] = []
        let cursor = try Row.fetchCursor(query.statement, arguments: query.arguments)
        while let row = try cursor.next() {
            guard try row.decode(Int64.self, atIndex: types.count + 2) == 0 else { return nil }
            let prior = types.enumerated().map { index, type in SQLiteValueCoding.propertyValue(row[index + 2], type: type) }
            rows.append((try row.decode(atIndex: 0), try row.decode(atIndex: 1), prior))
        }
        rows.sort { $0.key < $1.key }
        return rows
    }

    /// Runs the UPDATE; returns how many rows it changed.
    func run(_ db: Database) throws -> Int {
        try statement.execute(arguments: arguments)
        return db.changesCount
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
