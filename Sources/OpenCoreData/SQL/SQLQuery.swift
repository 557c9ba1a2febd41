/// Builds the FROM side of one fetch's SELECT in a dialect: table aliases, numbered across all
/// levels so that a subquery can refer to the rows around it (`t0` is the fetched row), and the
/// joins and subquery sources that key paths through relationships need.
package final class SQLQuery<Dialect: SQLDialect> {
    package let layout: any SQLTableLayout
    package let dialect: Dialect
    package let root: SQLScope
    private var aliasCount = 1
    /// `"_pk"` as the dialect quotes it, written once per join.
    private let primaryKeyColumn: String

    package init(layout: any SQLTableLayout, dialect: Dialect) {
        self.layout = layout
        self.dialect = dialect
        self.root = SQLScope(alias: "t0")
        self.primaryKeyColumn = dialect.quotedIdentifier("_pk")
    }

    func newAlias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    package func tableName(_ entity: EntityDescription) -> String {
        dialect.tableReference(layout.tableName(of: entity))
    }

    /// A property's column of the row `alias` names.
    package func column(_ alias: String, _ property: PropertyDescription) -> String {
        "\(alias).\(dialect.quotedIdentifier(layout.columnName(of: property)))"
    }

    /// The primary key of the row `alias` names.
    package func primaryKey(_ alias: String) -> String {
        "\(alias).\(primaryKeyColumn)"
    }

    /// `LEFT JOIN` to a to-one destination: a nil relationship gives a row of NULLs, as a nil
    /// object gives nil values in memory.
    func joinToOne(_ relationship: RelationshipDescription, from alias: String, in scope: SQLScope) -> String? {
        guard let destination = relationship.destinationEntity else { return nil }
        return scope.join("\(alias).\(relationship.qualifiedName)") {
            let joined = newAlias()
            return ("LEFT JOIN \(tableName(destination)) \(joined) ON \(primaryKey(joined)) = \(column(alias, relationship))", joined)
        }
    }

    /// The first to-many hop of a collection: the FROM clause of the subquery, the condition
    /// linking it to the owner row, and the alias of the element rows.
    func collectionSource(_ relationship: RelationshipDescription, from owner: String) -> (from: String, link: String, element: String)? {
        guard let destination = relationship.destinationEntity else { return nil }
        let element = newAlias()
        switch relationship.storage {
        case .inverseForeignKey(let inverse):
            return ("\(tableName(destination)) \(element)", "\(column(element, inverse)) = \(primaryKey(owner))", element)
        case .joinTable(let owningEnd):
            guard let joinTable = layout.joinTableName(for: owningEnd) else { return nil }
            let link = newAlias()
            let (near, far) = joinColumns(owningEnd === relationship)
            return ("\(dialect.tableReference(joinTable)) \(link) JOIN \(tableName(destination)) \(element) ON \(primaryKey(element)) = \(link).\(far)",
                    "\(link).\(near) = \(primaryKey(owner))", element)
        case .foreignKey:
            return nil
        }
    }

    /// A further to-many hop inside a subquery, as inner joins: elements without destinations
    /// contribute nothing, as in memory.
    func joinToMany(_ relationship: RelationshipDescription, from alias: String, in scope: SQLScope) -> String? {
        guard let destination = relationship.destinationEntity else { return nil }
        let element = newAlias()
        switch relationship.storage {
        case .inverseForeignKey(let inverse):
            scope.appendJoin("JOIN \(tableName(destination)) \(element) ON \(column(element, inverse)) = \(primaryKey(alias))")
        case .joinTable(let owner):
            guard let joinTable = layout.joinTableName(for: owner) else { return nil }
            let link = newAlias()
            let (near, far) = joinColumns(owner === relationship)
            scope.appendJoin("JOIN \(dialect.tableReference(joinTable)) \(link) ON \(link).\(near) = \(primaryKey(alias))")
            scope.appendJoin("JOIN \(tableName(destination)) \(element) ON \(primaryKey(element)) = \(link).\(far)")
        case .foreignKey:
            return nil
        }
        return element
    }

    /// A join table's columns, quoted: the one holding the key of the row a hop starts from, and
    /// the one holding the key it reaches (`source` to `target` from the owning end).
    private func joinColumns(_ fromOwningEnd: Bool) -> (near: String, far: String) {
        let (near, far) = fromOwningEnd ? ("source", "target") : ("target", "source")
        return (dialect.quotedIdentifier(near), dialect.quotedIdentifier(far))
    }
}
