#if Postgres
import Dispatch
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// The pool against the real server of `OCD_POSTGRES_URL` (see ``TestServer``).
@Suite struct PostgresConnectionPoolTests {
    @Test func selectOne() throws {
        let pool = try TestServer.pool()
        defer { pool.close() }
        let rows = try pool.query("SELECT 1")
        #expect(try rows.map { try $0.decode(Int.self) } == [1])
    }

    /// Values of each kind the store will write go to the server and come back unchanged.
    @Test func valuesRoundTrip() throws {
        let pool = try TestServer.pool()
        defer { pool.close() }
        let texts = ["", "plain", "é vs e\u{301}, 'quoted' \"double\" \\ ✓ 🏆", String(repeating: "x", count: 10_000)]
        let integers: [Int64] = [.min, -1, 0, 42, .max]
        let doubles: [Double] = [-.greatestFiniteMagnitude, -0.5, 0.1, .pi, 1e300]
        let bytes = Data([0, 1, 2, 0xFF, 0x7F, 0])
        let uuid = UUID()
        for (index, text) in texts.enumerated() {
            let integer = integers[index], double = doubles[index], flag = index % 2 == 0
            let missing: String? = nil
            let rows = try pool.query(
                "SELECT \(integer)::bigint, \(text)::text, \(double)::float8, \(bytes)::bytea, \(uuid)::uuid, \(flag)::boolean, \(missing)::text")
            let decoded = try rows.map { try $0.decode((Int64, String, Double, Data, UUID, Bool, String?).self) }
            #expect(decoded.count == 1)
            if let row = decoded.first {
                #expect(row.0 == integer)
                #expect(row.1 == text)
                #expect(row.2 == double)
                #expect(row.3 == bytes)
                #expect(row.4 == uuid)
                #expect(row.5 == flag)
                #expect(row.6 == nil)
            }
        }
    }

    /// A statement the server refuses throws its SQLSTATE and message, and the connection, still
    /// good, serves the next statement.
    @Test func serverErrorNamesItAndKeepsTheConnection() throws {
        let pool = try TestServer.pool("pool=1")
        defer { pool.close() }
        let before = try backendID(pool)
        #expect {
            try pool.query("SELECT 1 / 0")
        } throws: { error in
            let error = error as? PersistentStoreError
            return error?.code == PersistentStoreError.postgresError
                && error?.message == "PostgreSQL failed a query: 22012 division by zero"
        }
        #expect(try backendID(pool) == before)
        #expect(pool.connectionCount == 1)
    }

    /// With every connection lent out, the next operation waits for the timeout, then throws;
    /// once one is returned, operations go on.
    @Test func exhaustedPoolTimesOut() throws {
        let timeout = 0.3
        let pool = try TestServer.pool("pool=2", timeout: timeout)
        defer { pool.close() }
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: done) {
                _ = try? pool.withConnection { _ in
                    held.signal()
                    release.wait()
                }
            }
        }
        held.wait()
        held.wait()
        let start = Date()
        #expect {
            try pool.query("SELECT 1")
        } throws: { error in
            let error = error as? PersistentStoreError
            return error?.code == PersistentStoreError.timeout
                && error?.message == "No PostgreSQL connection became free within 0.3 s: all 2 of the pool's connections "
                + "were in use (raise the URL's pool option, or hold connections for less time)."
        }
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= timeout && waited < timeout + 5)
        #expect(pool.connectionCount == 2)
        release.signal()
        #expect(try pool.query("SELECT 1").map { try $0.decode(Int.self) } == [1])
        release.signal()
        done.wait()
    }

    /// A session terminated by the server (as `pg_terminate_backend`, a restart or an
    /// administrator would) is replaced: the next read succeeds, on a new backend.
    @Test(.timeLimit(.hang))
    func terminatedConnectionIsReplaced() throws {
        let pool = try TestServer.pool("pool=1")
        defer { pool.close() }
        let admin = try TestServer.pool("pool=1")
        defer { admin.close() }
        for _ in 0..<3 {
            let terminated = try backendID(pool)
            // The second argument waits (up to 5 s) until the backend has exited.
            let killed = try admin.query("SELECT pg_terminate_backend(\(terminated), 5000)")
            #expect(try killed.map { try $0.decode(Bool.self) } == [true])
            let replacement = try backendID(pool)
            #expect(replacement != terminated)
            #expect(pool.connectionCount == 1)
        }
    }

    /// A query on a connection whose session ended while it was lent (its channel already
    /// closed, so postgres-nio drops the query and never completes its future) throws
    /// `connectionLost` instead of waiting forever; the pool then opens a new connection.
    @Test(.timeLimit(.hang))
    func queryOnAConnectionClosedUnderItThrows() throws {
        let pool = try TestServer.pool("pool=1")
        defer { pool.close() }
        let admin = try TestServer.pool("pool=1")
        defer { admin.close() }
        #expect {
            try pool.withConnection { connection in
                let pid = try connection.query("SELECT pg_backend_pid()").map { try $0.decode(Int32.self) }.first ?? 0
                _ = try admin.query("SELECT pg_terminate_backend(\(pid), 5000)")
                let deadline = Date(timeIntervalSinceNow: 10)
                while !connection.connection.isClosed && Date() < deadline { usleep(1000) }
                return try connection.query("SELECT 1").count
            }
        } throws: { error in
            (error as? PersistentStoreError)?.code == PersistentStoreError.connectionLost
        }
        #expect(pool.connectionCount == 0)
        #expect(try pool.query("SELECT 1").count == 1)
    }

    /// A store call made on one of the store's own event loops throws instead of waiting for
    /// itself, on every loop of the store; the pool still serves other threads afterwards.
    @Test(.timeLimit(.hang))
    func callOnAStoreLoopThrows() throws {
        let pool = try TestServer.pool("pool=1", eventLoopThreads: 2)
        defer { pool.close() }
        _ = try pool.query("SELECT 1")
        for loop in pool.loops.group.makeIterator() {
            let result = loop.submit { try pool.query("SELECT 1").count }
            #expect {
                try result.wait()
            } throws: { error in
                let error = error as? PersistentStoreError
                return error?.code == PersistentStoreError.calledOnStoreEventLoop
            }
        }
        #expect(try pool.query("SELECT 2").map { try $0.decode(Int.self) } == [2])
    }

    /// sslmode against a server without TLS (the test server): `require` refuses to connect and
    /// says why; `prefer` and `disable` connect.
    @Test func tlsModes() throws {
        for mode in ["prefer", "disable"] {
            let pool = try TestServer.pool("sslmode=\(mode)")
            defer { pool.close() }
            #expect(try pool.query("SELECT 1").count == 1, "sslmode=\(mode)")
        }
        let pool = try TestServer.pool("sslmode=require")
        defer { pool.close() }
        expectCannotOpen(pool) { $0.hasSuffix("sslmode=require): the server does not offer TLS, and the URL says sslmode=require") }
    }

    /// A server that cannot be reached, or a database that does not exist, fails the operation
    /// with a message naming where it tried, and frees the pool's slot.
    @Test func unreachableServerOrDatabase() throws {
        let server = try PostgresStoreURL(TestServer.url())
        let nobody = try PostgresConnectionPool(
            url: PostgresStoreURL("postgres://app:Pa55word@127.0.0.1:1/worldcup?pool=1"), timeout: 5)
        defer { nobody.close() }
        expectCannotOpen(nobody) { message in
            message.hasPrefix("Cannot connect to PostgreSQL at 127.0.0.1:1 (user 'app', database 'worldcup', sslmode=prefer): ")
                && !message.contains("Pa55")
        }

        var missing = server
        missing.database = "ocd_no_such_database"
        let pool = try PostgresConnectionPool(url: missing, timeout: 5)
        defer { pool.close() }
        expectCannotOpen(pool) { $0.hasSuffix("3D000 database \"ocd_no_such_database\" does not exist") }
    }

    /// A query on `pool` fails with `cannotOpen` and a message `check` accepts, and the pool's
    /// slot is free again.
    private func expectCannotOpen(_ pool: PostgresConnectionPool, sourceLocation: SourceLocation = #_sourceLocation,
                                  message check: (String) -> Bool) {
        #expect(sourceLocation: sourceLocation) {
            try pool.query("SELECT 1")
        } throws: { error in
            guard let error = error as? PersistentStoreError else { return false }
            return error.code == PersistentStoreError.cannotOpen && check(error.message)
        }
        #expect(pool.connectionCount == 0, sourceLocation: sourceLocation)
    }

    /// The operations after `close()` throw `noStore`.
    @Test func closedPoolThrows() throws {
        let pool = try TestServer.pool()
        _ = try pool.query("SELECT 1")
        pool.close()
        #expect {
            try pool.query("SELECT 1")
        } throws: { error in
            (error as? PersistentStoreError)?.code == PersistentStoreError.noStore
        }
        #expect(pool.connectionCount == 0)
    }

    private func backendID(_ pool: PostgresConnectionPool) throws -> Int32 {
        let rows = try pool.query("SELECT pg_backend_pid()", retryingIfLost: true)
        return try rows.map { try $0.decode(Int32.self) }.first ?? 0
    }
}
#endif
