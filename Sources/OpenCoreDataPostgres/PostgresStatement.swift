#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// Compiled SQL (``SQLFragment``, written with ``PostgresDialect``'s markers) as a statement
/// postgres-nio runs: each marker numbered in order and cast to the type of the value bound to
/// it, text with the `"C"` collation of the store's text columns.
///
/// Numbering once the text is complete (rather than as fragments are written) lets the compiler
/// combine fragments in any order; the cast makes each parameter's type the value's own, so that
/// `numeric_column = $1` compares numbers (a decimal is sent as its text, which PostgreSQL would
/// otherwise take for text) and a string parameter never takes the database's collation.
enum PostgresStatement {
    /// - Throws: When a value cannot be encoded (postgres-nio's error).
    static func query(_ fragment: SQLFragment) throws -> PostgresQuery {
        var binds = PostgresBindings()
        var sql = String.UnicodeScalarView()
        var arguments = fragment.arguments.makeIterator()
        for scalar in fragment.sql.unicodeScalars {
            guard scalar == PostgresDialect.marker else {
                sql.append(scalar)
                continue
            }
            guard let value = arguments.next() else {
                throw PersistentStoreError(PersistentStoreError.noStore, "a compiled statement has more parameters than values")
            }
            try PostgresValueCoding.append(value, to: &binds)
            sql.append(contentsOf: "$\(binds.count)\(cast(of: value))".unicodeScalars)
        }
        return PostgresQuery(unsafeSQL: String(sql), binds: binds)
    }

    /// The cast of a parameter holding `value`, by the type ``PostgresValueCoding`` sends it as.
    static func cast(of value: PropertyValue) -> String {
        switch value {
        case .null: ""
        case .integer, .boolean, .object: "::bigint"
        case .double, .date: "::double precision"
        case .decimal: "::numeric"
        case .string, .uri: "::text COLLATE \"C\""
        case .data: "::bytea"
        case .uuid: "::uuid"
        }
    }
}
#endif
