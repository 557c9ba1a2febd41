import GRDB
import GRDBSQLite

/// The limits of SQLite that predicates meet, and what the store does at them.
///
/// Compiled predicates stay within SQLite's expression depth (``SQLFragment/joined(_:by:ifEmpty:fanOut:)``)
/// and turn long `OR`s of equalities into `IN` lists (``SQLitePredicateCompiler``). What still
/// exceeds a limit (more arguments than ``maximumArguments``, nesting deeper than SQLite's parser
/// stack, a join of more than 64 tables) is evaluated in memory instead: slower, never a
/// different answer.
enum SQLiteLimits {
    /// The most arguments a statement binds: SQLite's own default. Debian builds SQLite with
    /// 250,000 and macOS with 500,000; setting it on every connection makes the store leave a
    /// predicate to memory at the same size everywhere.
    static let maximumArguments: Int32 = 32_766

    static func apply(to db: Database) {
        sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, maximumArguments)
    }

    /// Whether SQLite refused a statement for its size rather than its meaning: more arguments
    /// than ``maximumArguments``, an expression deeper than 1,000, nesting deeper than its
    /// parser's stack (about 30 parentheses in SQLite 3.40), more than 64 tables in a join.
    static func isExceeded(by error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        if error.resultCode == .SQLITE_TOOBIG { return true }
        guard error.resultCode == .SQLITE_ERROR, let message = error.message else { return false }
        return ["too many SQL variables", "Expression tree is too large", "parser stack overflow", "tables in a join"]
            .contains { message.contains($0) }
    }
}
