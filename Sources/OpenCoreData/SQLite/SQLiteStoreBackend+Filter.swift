import GRDB

/// Which rows a fetch selects, shared by fetches, counts and grouped counts.
extension SQLiteStoreBackend {
    /// The table, query and WHERE clause of a fetch, and the conditions left to memory.
    struct FetchFilter {
        let table: SQLiteSchema.Table
        let query: SQLiteQuery
        let compiler: SQLitePredicateCompiler
        /// `" WHERE …"`, or empty.
        let whereClause: SQLFragment
        let residual: ResolvedPredicate?
    }

    /// Conditions the predicate compiles to go in the WHERE clause; the others are the residual
    /// (all of them when `compilingPredicate` is false).
    func filter(for fetch: StoreFetch, loaded: Loaded, compilingPredicate: Bool = true) throws -> FetchFilter {
        guard let table = loaded.schema.table(for: fetch.entity) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for \(fetch.entity.entityName)", url: url)
        }
        let query = SQLiteQuery(layout: loaded.schema, dialect: SQLiteDialect())
        let compiler = SQLitePredicateCompiler(query: query)
        var conditions: [SQLFragment] = []
        let entities = fetch.entities
        if entities.count != fetch.entity.rootEntity.selfAndDescendants.count {
            conditions.append(SQLFragment("t0.\"_entity\" IN (\(Array(repeating: "?", count: entities.count).joined(separator: ",")))",
                                          entities.map { .integer(loaded.code(of: $0)) }))
        }
        let (whereClause, residual) = compiler.whereClause(conditions, conjuncts: fetch.conjuncts, compiling: compilingPredicate)
        return FetchFilter(table: table, query: query, compiler: compiler, whereClause: whereClause, residual: residual)
    }
}
