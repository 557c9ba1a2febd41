#if Postgres
import Foundation
import OpenCoreData

/// Which rows a fetch selects, shared by fetches, counts and grouped counts.
extension PostgresStoreBackend {
    typealias Query = SQLQuery<PostgresDialect>
    typealias Compiler = SQLPredicateCompiler<PostgresDialect>

    /// The table, query and WHERE clause of a fetch, and the conditions left to memory.
    struct FetchFilter {
        let table: SQLiteSchema.Table
        let query: Query
        let compiler: Compiler
        /// `" WHERE …"`, or empty.
        let whereClause: SQLFragment
        let residual: ResolvedPredicate?

        /// `FROM "schema"."Table" t0` and the joins compiled so far, then the WHERE clause.
        /// Read it after every term that may add joins (order terms, sort values) is compiled.
        var source: SQLFragment {
            SQLFragment(" FROM \(query.tableName(table.root)) t0\(query.root.joinSQL)\(whereClause.sql)", whereClause.arguments)
        }
    }

    /// Conditions the predicate compiles to go in the WHERE clause; the others are the residual.
    func filter(for fetch: StoreFetch, loaded: Loaded) throws -> FetchFilter {
        guard let table = loaded.schema.layout.table(for: fetch.entity) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for \(fetch.entity.entityName)", url: errorURL)
        }
        let query = Query(layout: loaded.schema.layout, dialect: PostgresDialect(schemaName: loaded.schema.schemaName))
        let compiler = Compiler(query: query)
        var conditions: [SQLFragment] = []
        let entities = fetch.entities
        if entities.count != fetch.entity.rootEntity.selfAndDescendants.count {
            let codes = entities.map { String(loaded.code(of: $0)) }.joined(separator: ", ")
            conditions.append(SQLFragment("t0.\"_entity\" IN (\(codes))"))
        }
        let (whereClause, residual) = compiler.whereClause(conditions, conjuncts: fetch.conjuncts)
        return FetchFilter(table: table, query: query, compiler: compiler, whereClause: whereClause, residual: residual)
    }
}
#endif
