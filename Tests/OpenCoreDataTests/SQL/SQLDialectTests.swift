import Foundation
@testable import OpenCoreData
import Testing

// The seam between the shared predicate compiler (`Sources/OpenCoreData/SQL/`) and a store's
// dialect. A dialect unlike SQLite's in every piece of text it owns (numbered `$n` placeholders,
// identifiers in backticks, `TRUE`/`FALSE`, `COALESCE`, `=` against constants, functions by
// other names) compiles a table of predicates and sort keys; the test asserts the statement's
// text and the values bound to it. A `?`, a double quote, a `1`/`0` truth value or an SQLite
// function written by the shared compiler instead of asked of the dialect shows up in the text
// and fails it. The dialect is shaped like the PostgreSQL one of `Docs/PostgresStore.md`
// ("Predicates"), for step 5 to follow.

final class DialectTeam: ManagedObject {
    @Managed var name: String?
    @Managed var wins: Int64?
    @Managed var rating: Decimal?
    @Managed(inverse: "teams") var league: DialectLeague?
    @Managed(inverse: "team") var players: Set<DialectPlayer>
    @Managed(inverse: "teams") var sponsors: Set<DialectSponsor>
}

final class DialectLeague: ManagedObject {
    @Managed var name: String?
    @Managed(inverse: "league") var teams: Set<DialectTeam>
}

final class DialectPlayer: ManagedObject {
    @Managed var name: String?
    @Managed var number: Int32?
    @Managed(inverse: "players") var team: DialectTeam?
}

final class DialectSponsor: ManagedObject {
    @Managed var name: String?
    @Managed(inverse: "sponsors") var teams: Set<DialectTeam>
}

/// A dialect with PostgreSQL's shapes and text no SQLite statement has. Parameters are written
/// as a control character while compiling and numbered once the statement is complete.
struct NumberedTestDialect: SQLDialect {
    static let marker: Unicode.Scalar = "\u{1}"

    var parameterMarker: String { String(Self.marker) }

    func statementText(_ sql: String) -> String { SQLParameterNumbering.numbered(sql, marker: Self.marker) }

    func quotedIdentifier(_ name: String) -> String { "`\(name)`" }

    func truth(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    func nullAsFalse(_ condition: String) -> String { "COALESCE(\(condition), FALSE)" }

    /// Against a constant, `=` (an index can serve it) and `IS NULL`; between two values,
    /// `IS [NOT] DISTINCT FROM`.
    func comparison(_ left: SQLOperand, _ op: FetchPredicate.Operator, _ right: SQLOperand, negated: Bool) -> SQLFragment? {
        let l = left.fragment, r = right.fragment
        let maybeNull = { (sql: String, arguments: [PropertyValue]) in SQLFragment(negated ? nullAsFalse(sql) : sql, arguments) }
        switch (op, right.constant) {
        case (.equalTo, .null?): return l.wrapped { "\($0) IS NULL" }
        case (.notEqualTo, .null?): return l.wrapped { "\($0) IS NOT NULL" }
        case (.equalTo, _?): return maybeNull("\(l.sql) = \(r.sql)", l.arguments + r.arguments)
        case (.notEqualTo, _?): return SQLFragment("(\(l.sql) <> \(r.sql) OR \(l.sql) IS NULL)", l.arguments + r.arguments + l.arguments)
        case (.equalTo, nil): return SQLFragment("\(l.sql) IS NOT DISTINCT FROM \(r.sql)", l.arguments + r.arguments)
        case (.notEqualTo, nil): return SQLFragment("\(l.sql) IS DISTINCT FROM \(r.sql)", l.arguments + r.arguments)
        case (.lessThan, _): return maybeNull("\(l.sql) < \(r.sql)", l.arguments + r.arguments)
        case (.lessThanOrEqualTo, _): return maybeNull("\(l.sql) <= \(r.sql)", l.arguments + r.arguments)
        case (.greaterThan, _): return maybeNull("\(l.sql) > \(r.sql)", l.arguments + r.arguments)
        case (.greaterThanOrEqualTo, _): return maybeNull("\(l.sql) >= \(r.sql)", l.arguments + r.arguments)
        default: return nil
        }
    }

    /// `BEGINSWITH` without options only; the rest is left to memory.
    func stringMatch(_ value: SQLOperand, _ operation: StringMatching.Operation, _ pattern: SQLOperand,
                     options: FetchPredicate.Options, negated: Bool) -> SQLFragment? {
        guard operation == .beginsWith, options.isEmpty else { return nil }
        let test = "starts_with(\(value.fragment.sql), \(pattern.fragment.sql))"
        return SQLFragment(negated ? nullAsFalse(test) : test, value.fragment.arguments + pattern.fragment.arguments)
    }

    func folded(_ value: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment? { nil }

    func aggregate(_ function: ResolvedKeyPath.AggregateFunction, of column: String, type: AttributeType,
                   source: String) -> String? {
        switch function {
        case .min: "(SELECT min(\(column)) \(source))"
        case .max: "(SELECT max(\(column)) \(source))"
        case .sum, .avg: nil
        }
    }

    func orderTerm(_ value: String, type: AttributeType, comparison: FetchSortDescriptor.Comparison,
                   ascending: Bool) -> String? {
        guard comparison == .binary else { return nil }
        return ascending ? "\(value) ASC NULLS FIRST" : "\(value) DESC NULLS LAST"
    }
}

@Suite struct SQLDialectTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let format: String
        let arguments: [PropertyValue]
        /// The statement, or nil when the predicate is left to memory.
        let sql: String?
        var testDescription: String { format }

        init(_ format: String, _ sql: String?, _ arguments: [PropertyValue] = []) {
            self.format = format
            self.sql = sql
            self.arguments = arguments
        }
    }

    static let select = "SELECT t0.`_pk` FROM `DialectTeam` t0"
    static let players = "`DialectPlayer` t1 WHERE t1.`team` = t0.`_pk`"

    static let cases: [Case] = [
        Case("wins > 3", "\(select) WHERE t0.`wins` > $1", [.integer(3)]),
        Case("NOT (wins <= 3)", "\(select) WHERE (NOT COALESCE(t0.`wins` <= $1, FALSE))", [.integer(3)]),
        Case("wins == nil", "\(select) WHERE t0.`wins` IS NULL"),
        Case("name != nil", "\(select) WHERE t0.`name` IS NOT NULL"),
        Case("name == 'Ajax'", "\(select) WHERE t0.`name` = $1", [.string("Ajax")]),
        Case("NOT (name == 'Ajax')", "\(select) WHERE (NOT COALESCE(t0.`name` = $1, FALSE))", [.string("Ajax")]),
        Case("name != 'Ajax'", "\(select) WHERE (t0.`name` <> $1 OR t0.`name` IS NULL)", [.string("Ajax")]),
        Case("wins BETWEEN {1, 5}", "\(select) WHERE (t0.`wins` >= $1 AND t0.`wins` <= $2)", [.integer(1), .integer(5)]),
        Case("NOT (wins IN {1, 2, nil})", "\(select) WHERE (NOT COALESCE((t0.`wins` IN ($1, $2) OR t0.`wins` IS NULL), FALSE))",
             [.integer(1), .integer(2)]),
        Case("wins == 1 OR wins == 2 OR name == 'x'", "\(select) WHERE ((t0.`wins` IN ($1, $2)) OR t0.`name` = $3)",
             [.integer(1), .integer(2), .string("x")]),
        Case("wins > 1 AND (name BEGINSWITH 'A' OR NOT name BEGINSWITH 'B')",
             "\(select) WHERE (t0.`wins` > $1 AND (starts_with(t0.`name`, $2) OR (NOT COALESCE(starts_with(t0.`name`, $3), FALSE))))",
             [.integer(1), .string("A"), .string("B")]),
        Case("name BEGINSWITH[c] 'a'", nil),
        Case("name ==[c] 'a'", nil),
        Case("TRUEPREDICATE", "\(select) WHERE TRUE"),
        Case("rating > 2.5", "\(select) WHERE t0.`rating` > $1", [.decimal(Decimal(sign: .plus, exponent: -1, significand: 25))]),
        Case("league.name == 'Eredivisie'",
             "\(select) LEFT JOIN `DialectLeague` t1 ON t1.`_pk` = t0.`league` WHERE t1.`name` = $1", [.string("Eredivisie")]),
        Case("name == league.name",
             "\(select) LEFT JOIN `DialectLeague` t1 ON t1.`_pk` = t0.`league` WHERE t0.`name` IS NOT DISTINCT FROM t1.`name`"),
        Case("league == nil", "\(select) WHERE t0.`league` IS NULL"),
        Case("ANY players.number > 10", "\(select) WHERE EXISTS (SELECT 1 FROM \(players) AND t1.`number` > $1)", [.integer(10)]),
        Case("ALL players.number > 10",
             "\(select) WHERE NOT EXISTS (SELECT 1 FROM \(players) AND NOT (COALESCE(t1.`number` > $1, FALSE)))", [.integer(10)]),
        Case("NONE players.name == 'Cruijff'", "\(select) WHERE NOT EXISTS (SELECT 1 FROM \(players) AND t1.`name` = $1)",
             [.string("Cruijff")]),
        Case("players.@count >= 11", "\(select) WHERE (SELECT COUNT(*) FROM \(players)) >= $1", [.integer(11)]),
        Case("players.@max.number > 9", "\(select) WHERE (SELECT max(t1.`number`) FROM \(players)) > $1", [.integer(9)]),
        Case("players.@sum.number > 9", nil),
        Case("SUBQUERY(players, $p, $p.number > 5 AND $p.name == 'A').@count > 0",
             "\(select) WHERE (SELECT COUNT(*) FROM \(players) AND (t1.`number` > $1 AND t1.`name` = $2)) > $3",
             [.integer(5), .string("A"), .integer(0)]),
        Case("ANY sponsors.name == 'Philips'",
             "\(select) WHERE EXISTS (SELECT 1 FROM `_DialectSponsor_teams` t2 JOIN `DialectSponsor` t1 ON t1.`_pk` = t2.`source` "
                + "WHERE t2.`target` = t0.`_pk` AND t1.`name` = $1)", [.string("Philips")]),
    ]

    /// The statement a store would run for `predicate` in `dialect`, and its arguments; nil when
    /// the predicate is left to memory.
    static func statement<Dialect: SQLDialect>(_ predicate: FetchPredicate, in dialect: Dialect,
                                                 sortedBy keys: [FetchSortDescriptor] = []) throws -> (sql: String, arguments: [PropertyValue])? {
        let model = try ManagedObjectModel(managedObjectClasses: [DialectTeam.self, DialectLeague.self, DialectPlayer.self, DialectSponsor.self])
        try model.compile()
        let schema = try SQLiteSchema(model: model)
        let team = try #require(model.compiledEntity(named: "DialectTeam"))
        let query = SQLQuery(layout: schema, dialect: dialect)
        let compiler = SQLPredicateCompiler(query: query)
        guard let condition = compiler.condition(try predicate.resolved(for: team), in: query.root, negated: false),
              let order = compiler.orderTerms(try keys.map { try $0.resolved(for: team) }, in: query.root) else { return nil }
        let orderBy = order.isEmpty ? "" : " ORDER BY " + order.joined(separator: ", ")
        let sql = "SELECT \(query.primaryKey("t0")) FROM \(query.tableName(team)) t0\(query.root.joinSQL) WHERE \(condition.sql)\(orderBy)"
        return (dialect.statementText(sql), condition.arguments)
    }

    @Test(arguments: cases)
    func predicateCompilesInTheDialect(_ testCase: Case) throws {
        let statement = try Self.statement(try FetchPredicate(format: testCase.format), in: NumberedTestDialect())
        #expect(statement?.sql == testCase.sql)
        #expect((statement?.arguments ?? []) == testCase.arguments)
        // One argument per placeholder, numbered in order: $1 … $n, each once.
        let numbers = (statement?.sql ?? "").split(separator: "$").dropFirst().map { Int($0.prefix(while: \.isNumber)) }
        #expect(numbers == testCase.arguments.indices.map { $0 + 1 })
    }

    @Test func sortKeysAreTheDialectsOrderTerms() throws {
        let keys = [FetchSortDescriptor(key: "wins", ascending: false), FetchSortDescriptor(key: "league.name")]
        let statement = try Self.statement(FetchPredicate(format: "TRUEPREDICATE"), in: NumberedTestDialect(), sortedBy: keys)
        #expect(statement?.sql == "\(Self.select) LEFT JOIN `DialectLeague` t1 ON t1.`_pk` = t0.`league` WHERE TRUE "
            + "ORDER BY t0.`wins` DESC NULLS LAST, t1.`name` ASC NULLS FIRST")
        #expect(try Self.statement(FetchPredicate(format: "TRUEPREDICATE"), in: NumberedTestDialect(),
                                   sortedBy: [FetchSortDescriptor(key: "name", comparison: .caseInsensitive)]) == nil)
    }

    /// SQLite's dialect writes the same structure with its own text: `?`, double quotes, `IS`,
    /// `IFNULL` and its registered functions.
    @Test func sqliteWritesTheSameStructureInItsOwnText() throws {
        let predicate = try FetchPredicate(format: "NOT (name BEGINSWITH 'A') AND ALL players.number > 10 AND league.name ==[c] 'x'")
        let statement = try #require(try Self.statement(predicate, in: SQLiteDialect()))
        #expect(statement.sql == """
            SELECT t0."_pk" FROM "DialectTeam" t0 LEFT JOIN "DialectLeague" t2 ON t2."_pk" = t0."league" WHERE \
            ((NOT ocd_string_match(t0."name", ?, 1, 0)) AND NOT EXISTS (SELECT 1 FROM "DialectPlayer" t1 \
            WHERE t1."team" = t0."_pk" AND NOT (IFNULL(t1."number" > ?, 0))) AND ocd_fold(t2."name", 1) IS ocd_fold(?, 1))
            """)
        #expect(statement.arguments == [.string("A"), .integer(10), .string("x")])
    }

    @Test func numberingSkipsNothingAndTouchesNothingElse() {
        let marker = NumberedTestDialect.marker
        #expect(SQLParameterNumbering.numbered("a = \(marker) AND `b` IN (\(marker), \(marker))", marker: marker)
            == "a = $1 AND `b` IN ($2, $3)")
        #expect(SQLParameterNumbering.numbered("no parameters, 'é' ?", marker: marker) == "no parameters, 'é' ?")
    }
}
