/// What differs between two databases' SQL when a predicate or a sort is compiled.
///
/// ``SQLPredicateCompiler`` owns the structure, which every store shares: joins for to-one
/// steps, `EXISTS` for to-many ones, scalar subqueries for `@count`, aggregates and `SUBQUERY`,
/// scopes for subquery variables, `NOT` and the NULL rules that keep SQL's three-valued logic
/// equal to memory's two values, constants decided without rows. Every piece of text one
/// database writes differently from another comes from its dialect: placeholders, quoted
/// identifiers, truth values, and the comparison, string, folding, aggregate and sort rules of
/// `Docs/PostgresStore.md`'s "Predicates" table. A dialect method that returns nil leaves the
/// whole conjunct to memory, which is always right, only slower.
///
/// The SQLite store's is ``SQLiteDialect``. A dialect is a value type the compiler is generic
/// over, so that its calls are direct (and specialised) on the compile path of every fetch.
package protocol SQLDialect {
    /// What a fragment writes for each bound value while it is compiled: `?` for a database
    /// whose placeholders are positional (then ``statementText(_:)`` has nothing to do), or a
    /// marker that ``statementText(_:)`` numbers. A marker must be text the compiler never
    /// writes otherwise: identifiers are letters, digits and underscores (the model checks
    /// names) and values never go into the text, so a control character is safe.
    var parameterMarker: String { get }

    /// A finished statement's text as the database takes it: for numbered placeholders, each
    /// ``parameterMarker`` replaced, in order, by `$1`, `$2`, … (``SQLParameterNumbering``).
    /// Called once per statement, after every fragment is in place.
    func statementText(_ sql: String) -> String

    /// An identifier (table, column) quoted for this database.
    func quotedIdentifier(_ name: String) -> String

    /// A table of the store as a statement names it: quoted, and qualified where the store's
    /// tables live in a namespace of their own (a PostgreSQL schema). The default is
    /// ``quotedIdentifier(_:)``.
    func tableReference(_ name: String) -> String

    /// A condition that is always true, or always false.
    func truth(_ value: Bool) -> String

    /// `condition` with NULL read as false, for conditions under `NOT` (and inside `ALL`), so
    /// that SQL's unknown does not turn into a match when negated.
    func nullAsFalse(_ condition: String) -> String

    /// `left op right` for `==`, `!=`, `<`, `<=`, `>` and `>=` (nil for other operators, or to
    /// leave the comparison to memory), true exactly where memory's is: nil equals only nil and
    /// orders with nothing, text compares by UTF-8 bytes, numbers of any types by value
    /// (``PropertyValue/compare``), row keys (`isObject`) as integers. Where memory's answer is
    /// false the condition may be NULL, unless `negated` (it sits under `NOT`, where NULL would
    /// become a match): then write it two-valued, with ``nullAsFalse(_:)`` or otherwise.
    func comparison(_ left: SQLOperand, _ op: FetchPredicate.Operator, _ right: SQLOperand, negated: Bool) -> SQLFragment?

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` or `MATCHES` with `[c]`/`[d]` options, true
    /// exactly where ``StringMatching/match(_:value:pattern:options:)`` is (never for nil), with
    /// NULL for false allowed as in ``comparison(_:_:_:negated:)``; nil to leave it to memory.
    func stringMatch(_ value: SQLOperand, _ operation: StringMatching.Operation, _ pattern: SQLOperand,
                     options: FetchPredicate.Options, negated: Bool) -> SQLFragment?

    /// A value folded for a `[c]`, `[d]` or `[cd]` comparison as ``StringMatching/fold(_:_:)``
    /// folds it, a value that is not text unchanged; nil to leave such comparisons to memory.
    /// The compiler folds constants in Swift itself. `options` is never empty.
    func folded(_ value: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment?

    /// `value` folded as ``StringMatching/fold(_:_:)`` folds text whose characters are all
    /// ASCII (other text may fold otherwise), for prefilters that memory rechecks
    /// (`SQLPredicateCompiler+Prefilter`); nil when the dialect has none (the default).
    func asciiFolded(_ value: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment?

    /// A condition true of text holding a character outside ASCII, false of ASCII text (and
    /// not true of nil); nil when the dialect has none (the default).
    func holdsNonASCII(_ value: SQLFragment) -> SQLFragment?

    /// The scalar subquery of `@sum`, `@avg`, `@min` or `@max` of `column` over the rows of
    /// `source` (`FROM … WHERE …`), which compares as memory's aggregate of values of `type`
    /// (``PredicateEvaluator``'s sums: no overflow error, NaN as nil, 0 for no rows, nil
    /// averages); nil to leave it to memory.
    func aggregate(_ function: ResolvedKeyPath.AggregateFunction, of column: String, type: AttributeType,
                   source: String) -> String?

    /// An `ORDER BY` term for a sort key's value: nil first when ascending, as memory orders
    /// (``ResolvedSortKey/compare(_:_:comparison:ascending:)``); nil when the database cannot
    /// sort by that comparison.
    func orderTerm(_ value: String, type: AttributeType, comparison: FetchSortDescriptor.Comparison,
                   ascending: Bool) -> String?
}

extension SQLDialect {
    package func tableReference(_ name: String) -> String { quotedIdentifier(name) }

    package func asciiFolded(_ value: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment? { nil }

    package func holdsNonASCII(_ value: SQLFragment) -> SQLFragment? { nil }
}
