#if Postgres
import OpenCoreData
import OpenCoreDataPostgres
import Testing

@Suite struct PostgresStoreURLTests {
    /// Each bad URL and the message it gets: each names the part that is wrong.
    static let badURLs: [(url: String, problem: String)] = [
        ("localhost/worldcup", "it has no scheme; write postgres://user:password@host:port/database"),
        ("mysql://app@localhost/worldcup", "the scheme 'mysql' is not postgres:// or postgresql://"),
        ("postgres://app@localhost", "it names no database; add /DATABASE after the host"),
        ("postgres://app@localhost/", "it names no database; add /DATABASE after the host"),
        ("postgres://app@localhost/?pool=2", "it names no database; add /DATABASE after the host"),
        ("postgres://localhost/worldcup", "it names no user; write postgres://USER@host/database"),
        ("postgres://:secret@localhost/worldcup", "the user is empty"),
        ("postgres://app@/worldcup", "it names no host; write postgres://user@HOST/database"),
        ("postgres://app@:5432/worldcup", "it names no host; write postgres://user@HOST/database"),
        ("postgres://app@local host/worldcup", "the host 'local host' is not a host name or IP address"),
        ("postgres://app@[::1/worldcup", "the host '[::1' opens '[' without closing it"),
        ("postgres://app@[db.local]/worldcup", "the host '[db.local]' is not an IPv6 address"),
        ("postgres://app@[::1]5432/worldcup", "unexpected '5432' after the host '[::1]'"),
        ("postgres://app@localhost:abc/worldcup", "the port 'abc' is not a number from 1 to 65535"),
        ("postgres://app@localhost:/worldcup", "the port '' is not a number from 1 to 65535"),
        ("postgres://app@localhost:0/worldcup", "the port '0' is not a number from 1 to 65535"),
        ("postgres://app@localhost:65536/worldcup", "the port '65536' is not a number from 1 to 65535"),
        ("postgres://app@localhost:+5432/worldcup", "the port '+5432' is not a number from 1 to 65535"),
        ("postgres://app@[::1]:99999/worldcup", "the port '99999' is not a number from 1 to 65535"),
        ("postgres://a%zzp@localhost/worldcup", "the user 'a%zzp' has a malformed percent escape"),
        ("postgres://app:se%zzcret@localhost/worldcup", "the password has a malformed percent escape (write a literal '%' as %25)"),
        ("postgres://app@localhost/world/cup", "the database 'world/cup' contains '/'; the path is one database name"),
        ("postgres://app@localhost/world%00cup", "the database contains a NUL character"),
        ("postgres://app@localhost/" + String(repeating: "d", count: 64),
         "the database '\(String(repeating: "d", count: 64))' is 64 bytes long; PostgreSQL names hold at most 63 (it would truncate it)"),
        ("postgres://\(String(repeating: "é", count: 32))@localhost/worldcup",
         "the user '\(String(repeating: "é", count: 32))' is 64 bytes long; PostgreSQL names hold at most 63 (it would truncate it)"),
        ("postgres://app:secret@localhost/worldcup#top",
         "it has a fragment ('#...'); a PostgreSQL store URL has none (percent-encode a '#' in the password as %23)"),
        ("postgres://app:secret@localhost/worldcup?sslmode=verify-full", "sslmode 'verify-full' is not one of disable, prefer, require"),
        ("postgres://app@localhost/worldcup?sslmode=", "sslmode '' is not one of disable, prefer, require"),
        ("postgres://app@localhost/worldcup?sslmode", "the option 'sslmode' has no value; write NAME=VALUE"),
        ("postgres://app@localhost/worldcup?pool=0", "pool '0' is not a number of connections from 1 to 1000"),
        ("postgres://app@localhost/worldcup?pool=1001", "pool '1001' is not a number of connections from 1 to 1000"),
        ("postgres://app@localhost/worldcup?pool=ten", "pool 'ten' is not a number of connections from 1 to 1000"),
        ("postgres://app@localhost/worldcup?pool=-1", "pool '-1' is not a number of connections from 1 to 1000"),
        ("postgres://app@localhost/worldcup?pool=99999999999999999999", "pool '99999999999999999999' is not a number of connections from 1 to 1000"),
        ("postgres://app@localhost/worldcup?pool=2&pool=3", "the option 'pool' is given twice"),
        ("postgres://app@localhost/worldcup?password=secret", "the option 'password' is unknown; the options are sslmode, pool, schema and catchup"),
        ("postgres://app@localhost/worldcup?schema=", "the schema is empty"),
        ("postgres://app@localhost/worldcup?catchup=0", "catchup '0' is not a number of seconds from 0.01 to 3600.0"),
        ("postgres://app@localhost/worldcup?catchup=soon", "catchup 'soon' is not a number of seconds from 0.01 to 3600.0"),
        ("postgres://app@localhost/worldcup?catchup=nan", "catchup 'nan' is not a number of seconds from 0.01 to 3600.0"),
        ("postgres://app@localhost/worldcup?schema=%zz", "the value of the option 'schema' '%zz' has a malformed percent escape"),
    ]

    @Test(arguments: badURLs)
    func badURLThrowsNamingThePart(url: String, problem: String) {
        #expect {
            try PostgresStoreURL(url)
        } throws: { error in
            guard let error = error as? PersistentStoreError else { return false }
            return error.code == PersistentStoreError.invalidStoreURL
                && error.message == "Invalid PostgreSQL store URL: \(problem)."
        }
    }

    /// No message repeats the password, whatever is wrong with the rest of the URL.
    @Test(arguments: badURLs)
    func errorsNeverShowThePassword(url: String, problem: String) throws {
        let withPassword = url.replacingOccurrences(of: "://app@", with: "://app:Pa55word@")
            .replacingOccurrences(of: "://app:secret@", with: "://app:Pa55word@")
            .replacingOccurrences(of: "se%zzcret", with: "Pa55%zzword")
        do {
            _ = try PostgresStoreURL(withPassword)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(!"\(error)".contains("Pa55"))
        }
    }

    @Test func fullURL() throws {
        let url = try PostgresStoreURL(
            "postgres://app:s%40cr%3At@db.local:6543/world%20cup?sslmode=require&pool=3&schema=t_1&catchup=0.25")
        #expect(url.host == "db.local")
        #expect(url.port == 6543)
        #expect(url.user == "app")
        #expect(url.password == "s@cr:t")
        #expect(url.database == "world cup")
        #expect(url.tls == .require)
        #expect(url.poolSize == 3)
        #expect(url.schema == "t_1")
        #expect(url.catchUpInterval == 0.25)
        #expect(url.redacted == "postgres://app:***@db.local:6543/world%20cup?sslmode=require&pool=3&schema=t_1&catchup=0.25")
    }

    /// Printing, debug-printing or dumping a parsed URL shows it redacted.
    @Test func printingNeverShowsThePassword() throws {
        let url = try PostgresStoreURL("postgres://app:Pa55word@localhost/worldcup")
        var dumped = ""
        dump(url, to: &dumped)
        for text in ["\(url)", String(reflecting: url), dumped] {
            #expect(!text.contains("Pa55"), "\(text)")
            #expect(text.contains("postgres://app:***@localhost:5432/worldcup"), "\(text)")
        }
    }

    @Test func defaults() throws {
        let url = try PostgresStoreURL("postgresql://app@[::1]/worldcup")
        #expect(url.host == "::1")
        #expect(url.port == 5432)
        #expect(url.password == nil)
        #expect(url.tls == .prefer)
        #expect(url.poolSize == 10)
        #expect(url.schema == "public")
        #expect(url.catchUpInterval == 1)
        #expect(url.redacted == "postgres://app@[::1]:5432/worldcup?sslmode=prefer&pool=10&schema=public")
    }

    /// The first ':' ends the user, the last '@' the user information; the scheme's case does not
    /// matter; every sslmode and the pool's bounds are accepted.
    @Test func separatorsAndBounds() throws {
        let url = try PostgresStoreURL("POSTGRES://app:a:b@c@localhost:1/worldcup?sslmode=disable&pool=1000")
        #expect(url.user == "app")
        #expect(url.password == "a:b@c")
        #expect(url.port == 1)
        #expect(url.tls == .disable)
        #expect(url.poolSize == 1000)
        #expect(try PostgresStoreURL("postgres://app@localhost:65535/w?pool=1&sslmode=prefer").port == 65535)
        #expect(try PostgresStoreURL("postgres://app@localhost/" + String(repeating: "d", count: 63)).database.count == 63)
    }
}
#endif
