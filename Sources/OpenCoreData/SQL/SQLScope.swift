/// One level of a SELECT: the main query or an `EXISTS`/scalar subquery. It owns the joins the
/// key paths compiled in it need, and sees the subquery variables of the levels around it.
package final class SQLScope {
    /// The alias of the row key paths start from at this level.
    package let alias: String
    package let parent: SQLScope?
    package private(set) var joins: [String] = []
    private var joinAliases: [String: String] = [:]
    private var variables: [String: String] = [:]

    package init(alias: String, parent: SQLScope? = nil) {
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

    /// The joins, each after a space; empty without joins. Read it after compiling everything of
    /// the level (conditions and order terms both add joins).
    package var joinSQL: String { joins.isEmpty ? "" : " " + joins.joined(separator: " ") }
}
