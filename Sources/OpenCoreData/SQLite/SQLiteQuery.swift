import GRDB

/// SQL text with its bound arguments, in order. Values never go into the text.
struct SQLFragment {
    var sql: String
    var arguments: [DatabaseValue] = []

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Terms joined by `AND` or `OR`, in parentheses, as a tree SQLite accepts however many
    /// terms there are.
    ///
    /// SQLite parses `a OR b OR c …` into a chain as deep as the number of terms and refuses an
    /// expression deeper than 1,000 ("Expression tree is too large"); a balanced tree of
    /// parentheses would instead fill its parser's stack (about 30 nested parentheses). Runs of
    /// at most `fanOut` terms, themselves grouped by `fanOut`, keep both small: 64 terms nest
    /// 2 parentheses deep, a million 4. The arguments keep the order of the terms.
    static func joined(_ terms: [SQLFragment], by keyword: String, fanOut: Int = 64) -> SQLFragment {
        var level = terms
        repeat {
            level = stride(from: 0, to: level.count, by: fanOut).map { start in
                let run = level[start..<min(start + fanOut, level.count)]
                return SQLFragment("(" + run.map(\.sql).joined(separator: " \(keyword) ") + ")", run.flatMap(\.arguments))
            }
        } while level.count > 1
        return level.first ?? SQLFragment(keyword == "AND" ? "1" : "0")
    }
}

/// One level of a SELECT: the main query or an `EXISTS`/scalar subquery. It owns the joins the
/// key paths compiled in it need, and sees the subquery variables of the levels around it.
final class SQLScope {
    /// The alias of the row key paths start from at this level.
    let alias: String
    let parent: SQLScope?
    private(set) var joins: [String] = []
    private var joinAliases: [String: String] = [:]
    private var variables: [String: String] = [:]

    init(alias: String, parent: SQLScope? = nil) {
        self.alias = alias
        self.parent = parent
    }

    func bind(_ variable: String, to alias: String) {
        variables[variable] = alias
    }

    func alias(of variable: String) -> String? {
        variables[variable] ?? parent?.alias(of: variable)
    }

    /// The alias a join is known by, creating the join once per (row, relationship).
    func join(_ key: String, make: () -> (clause: String, alias: String)) -> String {
        if let alias = joinAliases[key] { return alias }
        let (clause, alias) = make()
        joins.append(clause)
        joinAliases[key] = alias
        return alias
    }

    func appendJoin(_ clause: String) {
        joins.append(clause)
    }

    var joinSQL: String { joins.isEmpty ? "" : " " + joins.joined(separator: " ") }
}

/// Builds the SELECT of one fetch: aliases are numbered across all levels so that a subquery can
/// refer to the rows around it.
final class SQLiteQuery {
    let schema: SQLiteSchema
    let codes: (EntityDescription) -> Int64
    let root: SQLScope
    private var aliasCount = 1

    init(schema: SQLiteSchema, codes: @escaping (EntityDescription) -> Int64) {
        self.schema = schema
        self.codes = codes
        self.root = SQLScope(alias: "t0")
    }

    func newAlias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    func tableName(_ entity: EntityDescription) -> String {
        quoted(entity.rootEntity.entityName)
    }

    func column(_ alias: String, _ property: PropertyDescription) -> String {
        "\(alias).\(quoted(schema.columnName(of: property)))"
    }

    /// `LEFT JOIN` to a to-one destination: a nil relationship gives a row of NULLs, as a nil
    /// object gives nil values in memory.
    func joinToOne(_ relationship: RelationshipDescription, from alias: String, in scope: SQLScope) -> String? {
        guard let destination = relationship.destinationEntity else { return nil }
        return scope.join("\(alias).\(relationship.qualifiedName)") {
            let joined = newAlias()
            return ("LEFT JOIN \(tableName(destination)) \(joined) ON \(joined).\"_pk\" = \(column(alias, relationship))", joined)
        }
    }

    /// The first to-many hop of a collection: the FROM clause of the subquery, the condition
    /// linking it to the owner row, and the alias of the element rows.
    func collectionSource(_ relationship: RelationshipDescription, from owner: String) -> (from: String, link: String, element: String)? {
        guard let destination = relationship.destinationEntity else { return nil }
        let element = newAlias()
        switch relationship.storage {
        case .inverseForeignKey(let inverse):
            return ("\(tableName(destination)) \(element)", "\(column(element, inverse)) = \(owner).\"_pk\"", element)
        case .joinTable(let owningEnd):
            guard let joinTable = schema.joinTable(for: owningEnd) else { return nil }
            let link = newAlias()
            let (near, far) = owningEnd === relationship ? ("source", "target") : ("target", "source")
            return ("\(quoted(joinTable.name)) \(link) JOIN \(tableName(destination)) \(element) ON \(element).\"_pk\" = \(link).\"\(far)\"",
                    "\(link).\"\(near)\" = \(owner).\"_pk\"", element)
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
            scope.appendJoin("JOIN \(tableName(destination)) \(element) ON \(column(element, inverse)) = \(alias).\"_pk\"")
        case .joinTable(let owner):
            guard let joinTable = schema.joinTable(for: owner) else { return nil }
            let link = newAlias()
            let (near, far) = owner === relationship ? ("source", "target") : ("target", "source")
            scope.appendJoin("JOIN \(quoted(joinTable.name)) \(link) ON \(link).\"\(near)\" = \(alias).\"_pk\"")
            scope.appendJoin("JOIN \(tableName(destination)) \(element) ON \(element).\"_pk\" = \(link).\"\(far)\"")
        case .foreignKey:
            return nil
        }
        return element
    }
}
