#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Fetches and counts: one `SELECT` each (one snapshot under READ COMMITTED), the predicate's
/// compiled conditions in its WHERE clause and the rest returned as the residual, as the SQLite
/// store does.
///
/// Sort keys PostgreSQL cannot order as memory does (case-insensitive and localized text) are
/// read with the rows and sorted in Swift with the same comparison memory uses; the window is
/// then applied in Swift too.
extension PostgresStoreBackend {
    package func fetch(_ fetch: StoreFetch) throws -> StoreFetchResult {
        let loaded = try loaded
        let select = try self.select(for: fetch, loaded: loaded, counting: false)
        let rows = try read(select.fragment)
        let singleEntity = Self.hasSingleEntity(fetch) ? fetch.entity : nil
        var found: [(id: ManagedObjectID, row: RowSnapshot?, sortValues: [PropertyValue])] = []
        for row in rows {
            let cells = row.makeRandomAccess()
            let id: ManagedObjectID
            let snapshot: RowSnapshot?
            if select.identifiersOnly {
                let code = try cells[1].decode(Int64.self)
                guard let entity = singleEntity ?? loaded.entityByCode[code] else { continue }
                id = ManagedObjectID(entity: entity, store: loaded.tag, primaryKey: try cells[0].decode(Int64.self))
                snapshot = nil
            } else {
                guard let decoded = try decode(row, loaded: loaded) else { continue }
                (id, snapshot) = (decoded.objectID, decoded)
            }
            var sortValues: [PropertyValue] = []
            for (offset, key) in select.keysSortedInSwift.enumerated() {
                sortValues.append(try PostgresValueCoding.propertyValue(cells[select.sortValueColumn + offset], type: key.attribute.attributeType))
            }
            found.append((id, snapshot, sortValues))
        }
        if !select.keysSortedInSwift.isEmpty {
            let keys = select.keysSortedInSwift
            found.sort { lhs, rhs in
                for (index, key) in keys.enumerated() {
                    let order = key.compare(lhs.sortValues[index], rhs.sortValues[index])
                    if order != 0 { return order < 0 }
                }
                return lhs.id.key < rhs.id.key
            }
            if select.residual == nil, fetch.limit > 0 || fetch.offset > 0 {
                let window = found.dropFirst(fetch.offset)
                found = Array(fetch.limit > 0 ? window.prefix(fetch.limit) : window)
            }
        }
        return select.identifiersOnly ? StoreFetchResult(ids: found.map(\.id), rows: [], residual: nil)
                                      : StoreFetchResult(rows: found.compactMap(\.row), residual: select.residual)
    }

    package func primaryKeys(_ fetch: StoreFetch) throws -> [Int64]? {
        guard fetch.identifiersOnly, Self.hasSingleEntity(fetch) else { return nil }
        let select = try self.select(for: fetch, loaded: try loaded, counting: false)
        guard select.residual == nil, select.keysSortedInSwift.isEmpty else { return nil }
        return try read(select.fragment)
            .map { try $0.decode((Int64, Int64).self).0 }
    }

    package func count(_ fetch: StoreFetch) throws -> Int? {
        let select = try self.select(for: fetch, loaded: try loaded, counting: true)
        guard select.residual == nil else { return nil }
        let rows = try read(select.fragment)
        let total = Int(try rows.first?.decode(Int64.self) ?? 0)
        let remaining = max(0, total - fetch.offset)
        return fetch.limit > 0 ? min(fetch.limit, remaining) : remaining
    }

    // MARK: The statement

    /// Runs a compiled read, logged at trace level as the SQLite store logs its statements.
    func read(_ fragment: SQLFragment) throws -> PostgresQueryResult {
        let query = try PostgresStatement.query(fragment)
        if sqlLog.logLevel <= .trace { sqlLog.trace("\(query.sql)") }
        return try reading("a query") { try $0.query(query) }
    }

    /// A fetch's SELECT, and how to read its rows.
    struct FetchSelect {
        let fragment: SQLFragment
        let residual: ResolvedPredicate?
        /// Whether rows are `_pk, _entity` only (else the table's select list).
        let identifiersOnly: Bool
        /// The sort keys, when the rows come unsorted and carry their values to sort in Swift.
        let keysSortedInSwift: [ResolvedSortKey]
        /// The column of the first sort value.
        let sortValueColumn: Int
    }

    /// The SELECT for a fetch: the predicate's conditions that compile go in the WHERE clause,
    /// the others come back as the residual (and then the window is not applied).
    func select(for fetch: StoreFetch, loaded: Loaded, counting: Bool) throws -> FetchSelect {
        let filter = try self.filter(for: fetch, loaded: loaded)
        let identifiersOnly = !counting && fetch.identifiersOnly && filter.residual == nil
        var columns: [String]
        if counting {
            columns = ["COUNT(*)"]
        } else if identifiersOnly {
            columns = ["t0.\"_pk\"", "t0.\"_entity\""]
        } else {
            columns = [selectList(filter.table, alias: "t0")]
        }
        let sortValueColumn = identifiersOnly ? 2 : 3 + filter.table.columns.count
        var order: [String] = []
        var keysSortedInSwift: [ResolvedSortKey] = []
        if !counting {
            if let terms = filter.compiler.orderTerms(fetch.sortKeys, in: filter.query.root) {
                order = terms + ["t0.\"_pk\""]
            } else {
                keysSortedInSwift = fetch.sortKeys
                columns += try fetch.sortKeys.map { try sortValueExpression($0, filter: filter, entity: fetch.entity) }
            }
        }
        // Read the source last: order terms and sort values may add joins.
        let source = filter.source
        var sql = "SELECT \(columns.joined(separator: ", "))\(source.sql)"
        if !order.isEmpty {
            sql += " ORDER BY " + order.joined(separator: ", ")
            if filter.residual == nil, fetch.limit > 0 || fetch.offset > 0 {
                sql += (fetch.limit > 0 ? " LIMIT \(fetch.limit)" : "") + " OFFSET \(fetch.offset)"
            }
        }
        return FetchSelect(fragment: SQLFragment(sql, source.arguments), residual: filter.residual, identifiersOnly: identifiersOnly,
                           keysSortedInSwift: keysSortedInSwift, sortValueColumn: sortValueColumn)
    }

    /// A sort key's value of each row, as ``PostgresValueCoding/propertyValue(_:type:)`` reads it.
    private func sortValueExpression(_ key: ResolvedSortKey, filter: FetchFilter, entity: EntityDescription) throws -> String {
        guard let operand = filter.compiler.value(of: key.path.steps[...], from: filter.query.root.alias, in: filter.query.root) else {
            throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                    "the store cannot sort \(entity.entityName) by \(key.path.text)", entityName: entity.entityName)
        }
        return key.attribute.attributeType == .decimalAttributeType ? "(\(operand.fragment.sql))::text" : operand.fragment.sql
    }

    /// Whether a fetch's rows can only be of its entity: the entity has no subentities.
    static func hasSingleEntity(_ fetch: StoreFetch) -> Bool {
        fetch.entity.rootEntity.selfAndDescendants.count == 1
    }
}
#endif
