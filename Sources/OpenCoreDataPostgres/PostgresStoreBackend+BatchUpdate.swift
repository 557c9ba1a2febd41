#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Batch updates written by one statement (Docs/PostgresStore.md, "Batch requests") that locks
/// the matching rows, writes them and yields the values it overwrote:
///
/// ```sql
/// WITH old AS (SELECT t0."_pk", t0."_entity", t0."wins" AS "o0", … FROM t t0 … WHERE … ORDER BY t0."_pk" FOR UPDATE OF t0)
/// UPDATE t SET "wins" = t."wins"::bigint + $1, "_version" = t."_version" + 1 FROM old
/// WHERE t."_pk" = old."_pk" RETURNING old."_entity", old."_pk", old."refused", old."o0", …
/// ```
///
/// in one transaction with what a save of the same rows writes: each row's version bumped, the
/// generation advanced, one history change per row naming the properties set, with the values
/// it overwrote (as the SQLite store's set-based update records them). The rows are locked in key
/// order and before the generation row, as a save locks them.
///
/// The store declines (writes nothing; the caller updates row by row, which reports any bad value
/// naming its row) when part of the predicate is left to memory, or when a computed value does
/// not fit: beyond its column (`22003`, the columns' types being the attributes' ranges) or no
/// value for a required attribute. (Text holding U+0000, which PostgreSQL cannot store, never
/// gets here: the coordinator refuses it in every batch request.)
extension PostgresStoreBackend {
    package func update(_ update: StoreBatchUpdate, info: HistoryTransactionInfo) throws -> StoreBatchUpdateOutcome {
        let loaded = try loadedForWriting()
        guard let statement = try SetBasedUpdate(update, backend: self, loaded: loaded) else { return .declined }
        var rows: [SetBasedRow] = []
        let outcome: SaveOutcome
        do {
            outcome = try writeTransaction("updating \(update.fetch.entity.entityName) in a batch") { connection in
                rows = try statement.run(connection)
                guard !rows.isEmpty else { throw BatchUpdateEnd.nothingMatched }
                let history = historySettings.isRecording
                    ? HistoryChangeRow.rows(updated: rows, by: update, entityByCode: loaded.entityByCode)
                    : []
                return try recordCommit(history: history, info: info, connection, loaded: loaded) { generations, token in
                    .committed(permanentIDs: IDMapping(), preImages: [:], generations: generations, historyToken: token)
                }
            }
        } catch BatchUpdateEnd.nothingMatched {
            return .committed(ids: [], priorValues: [], outcome: nil)
        } catch BatchUpdateEnd.declined {
            return .declined
        }
        let ids = rows.compactMap { row in
            loaded.entityByCode[row.code].map { ManagedObjectID(entity: $0, store: loaded.tag, primaryKey: row.key) }
        }
        return .committed(ids: ids, priorValues: rows.map(\.prior), outcome: outcome)
    }
}

/// Why a set-based update's transaction rolls back without an error: no row matched (nothing to
/// write), or a row's computed value does not fit (the caller updates row by row).
private enum BatchUpdateEnd: Error {
    case nothingMatched
    case declined
}

/// A row a set-based update changed: its entity code, its primary key, and the values of the
/// attributes set as they were (in the order of the update's assignments).
private typealias SetBasedRow = (code: Int64, key: Int64, prior: [PropertyValue])

/// The statement of one set-based batch update.
private struct SetBasedUpdate {
    private let update: StoreBatchUpdate
    private let statement: SQLFragment

    /// `out_of_range` (`22003`) and `not_null_violation` (`23502`): a computed value does not
    /// fit its column.
    private static let unfitStates: Set<String> = ["22003", "23502"]

    /// Nil when the store cannot write the update with one statement: part of its predicate is
    /// left to memory, or an assignment is not one SQL computes as the row by row update does.
    init?(_ update: StoreBatchUpdate, backend: PostgresStoreBackend, loaded: PostgresStoreBackend.Loaded) throws {
        self.update = update
        let filter = try backend.filter(for: update.fetch, loaded: loaded)
        guard filter.residual == nil else { return nil }
        let columns = PostgresStoreBackend.columnsByName(filter.table)
        let marker = PostgresDialect.marker
        var assignments: [String] = []
        var arguments: [PropertyValue] = []
        var selected: [String] = []
        var refusals: [String] = []
        for (index, assignment) in update.assignments.enumerated() {
            let attribute = assignment.attribute
            guard let name = loaded.schema.layout.columnNames(of: attribute).first, let column = columns[name] else { return nil }
            selected.append("\(PostgresValueCoding.selectExpression(column, prefix: "t0.")) AS \"o\(index)\"")
            switch assignment.value {
            case .constant(let value):
                assignments.append("\(quoted(name)) = \(marker)")
                arguments.append(value)
            case .integer(let source, let operation):
                guard let sourceName = loaded.schema.layout.columnNames(of: source).first, columns[sourceName] != nil,
                      source.attributeType.integerRange != nil, attribute.attributeType.integerRange != nil else { return nil }
                // In 64-bit arithmetic, as the row by row update computes; the column's type
                // refuses a result beyond the attribute's range (`22003`), as does an overflow.
                var expression = "t.\(quoted(sourceName))::bigint"
                if let (op, operand) = operation {
                    let symbol = switch op {
                    case .add: "+"
                    case .subtract: "-"
                    case .multiply: "*"
                    case .divide: "/"
                    }
                    expression = "(\(expression) \(symbol) \(marker))"
                    arguments.append(.integer(operand))
                }
                assignments.append("\(quoted(name)) = \(expression)")
                // No value for a required attribute: the row by row update reports it.
                if !attribute.isOptional { refusals.append("t0.\(quoted(sourceName)) IS NULL") }
            }
        }
        assignments.append("\"_version\" = t.\"_version\" + 1")
        let source = filter.source
        let refused = refusals.isEmpty ? "false" : "(" + refusals.joined(separator: " OR ") + ")"
        let table = filter.query.tableName(filter.table.root)
        let old = (0..<update.assignments.count).map { ", old.\"o\($0)\"" }.joined()
        statement = SQLFragment("""
            WITH old AS (SELECT t0."_pk", t0."_entity", \(refused) AS "refused", \(selected.joined(separator: ", "))\(source.sql) \
            ORDER BY t0."_pk" FOR UPDATE OF t0) \
            UPDATE \(table) AS t SET \(assignments.joined(separator: ", ")) FROM old WHERE t."_pk" = old."_pk" \
            RETURNING old."_entity", old."_pk", old."refused"\(old)
            """, source.arguments + arguments)
    }

    /// Runs the statement; returns the rows it changed, in key order, with the values it
    /// overwrote.
    ///
    /// - Throws: ``BatchUpdateEnd/declined`` when a computed value does not fit a row.
    func run(_ connection: PooledConnection) throws -> [SetBasedRow] {
        let result: PostgresQueryResult
        do {
            result = try connection.query(try PostgresStatement.query(statement))
        } catch let error as PSQLError where Self.unfitStates.contains(error.serverInfo?[.sqlState] ?? "") {
            throw BatchUpdateEnd.declined
        }
        let types = update.assignments.map(\.attribute.attributeType)
        var rows: [SetBasedRow] = []
        for row in result {
            let cells = Array(row)
            guard try cells[2].decode(Bool.self) == false else { throw BatchUpdateEnd.declined }
            let prior = try types.enumerated().map { index, type in try PostgresValueCoding.propertyValue(cells[index + 3], type: type) }
            rows.append((try cells[0].decode(Int64.self), try cells[1].decode(Int64.self), prior))
        }
        rows.sort { $0.key < $1.key }
        return rows
    }
}
#endif
