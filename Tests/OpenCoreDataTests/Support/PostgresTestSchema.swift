#if Postgres
import OpenCoreDataPostgres

/// A schema of one test's own on the PostgreSQL server of `OCD_POSTGRES_URL`.
typealias PostgresTestSchema = ScratchPostgresSchema
#else
/// Without the `Postgres` trait there are no PostgreSQL stacks.
final class PostgresTestSchema: Sendable {}
#endif
