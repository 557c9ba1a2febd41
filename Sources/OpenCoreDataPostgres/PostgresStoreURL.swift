#if Postgres
import Foundation
import OpenCoreData

/// A PostgreSQL store's URL, parsed and checked:
/// `postgres://user:password@host:port/database?sslmode=require&pool=10&schema=app`.
///
/// Parsed by hand rather than with `URLComponents`, so that each mistake gets an error naming the
/// part that is wrong (`URLComponents` answers nil for a port that is not a number, and says no
/// more). No error message, and not ``redacted``, ever contains the password.
package struct PostgresStoreURL: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable {
    /// How the connection uses TLS, with libpq's `sslmode` names.
    package enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP otherwise.
        case prefer
        /// TLS or no connection; the certificate and host name are verified (libpq's
        /// `verify-full`, stricter than libpq's `require`).
        case require
    }

    package static let defaultPort = 5432
    package static let defaultPoolSize = 10
    package static let poolSizes = 1...1000
    package static let defaultCatchUpInterval: Double = 1
    package static let catchUpIntervals: ClosedRange<Double> = 0.01...3600
    /// PostgreSQL silently truncates longer identifiers (its NAMEDATALEN is 64, with the NUL).
    package static let maximumNameBytes = 63

    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var tls: TLSMode
    package var poolSize: Int
    /// The PostgreSQL schema the store's tables live in, so that several stores share a database.
    package var schema: String
    /// How often, in seconds, a process that follows the store's commits checks for one whose
    /// notification it missed: the bound on a lost notification's delay.
    package var catchUpInterval: Double

    /// The URL with the password replaced by `***`: what logs, errors and `PersistentStore.url`
    /// show.
    package var redacted: String {
        var text = "postgres://\(Self.encoded(user))"
        if password != nil { text += ":***" }
        let hostText = host.contains(":") ? "[\(host)]" : host
        text += "@\(hostText):\(port)/\(Self.encoded(database))"
        text += "?sslmode=\(tls.rawValue)&pool=\(poolSize)&schema=\(Self.encoded(schema))"
        if catchUpInterval != Self.defaultCatchUpInterval { text += "&catchup=\(catchUpInterval)" }
        return text
    }

    /// The redacted URL: printing, logging or dumping a store URL never shows its password.
    package var description: String { redacted }
    package var debugDescription: String { redacted }
    package var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }

    /// Parses a store URL.
    ///
    /// - Throws: `PersistentStoreError.invalidStoreURL`, naming the scheme, host, port, user,
    ///   database or option that is wrong.
    package init(_ string: String) throws {
        guard let schemeEnd = string.range(of: "://") else {
            throw Self.invalid("it has no scheme; write postgres://user:password@host:port/database")
        }
        let scheme = string[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw Self.invalid("the scheme '\(scheme)' is not postgres:// or postgresql://")
        }
        var rest = Substring(string[schemeEnd.upperBound...])
        if rest.contains("#") {
            throw Self.invalid("it has a fragment ('#...'); a PostgreSQL store URL has none (percent-encode a '#' in the password as %23)")
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard let slash = rest.firstIndex(of: "/") else {
            throw Self.invalid("it names no database; add /DATABASE after the host")
        }
        let authority = rest[..<slash]
        let path = rest[rest.index(after: slash)...]

        // The last '@' ends the user information: a host cannot contain one.
        guard let at = authority.lastIndex(of: "@") else {
            throw Self.invalid("it names no user; write postgres://USER@host/database")
        }
        let userInfo = authority[..<at]
        let hostAndPort = authority[authority.index(after: at)...]
        if let colon = userInfo.firstIndex(of: ":") {
            user = try Self.decoded(userInfo[..<colon], part: "user")
            password = try Self.decodedPassword(userInfo[userInfo.index(after: colon)...])
        } else {
            user = try Self.decoded(userInfo, part: "user")
            password = nil
        }
        try Self.checkName(user, part: "user")
        (host, port) = try Self.hostAndPort(hostAndPort)

        database = try Self.decoded(path, part: "database")
        if database.contains("/") {
            throw Self.invalid("the database '\(database)' contains '/'; the path is one database name")
        }
        try Self.checkName(database, part: "database")

        tls = .prefer
        poolSize = Self.defaultPoolSize
        schema = "public"
        catchUpInterval = Self.defaultCatchUpInterval
        if let query { try readOptions(query) }
    }

    private mutating func readOptions(_ query: Substring) throws {
        var seen: Set<String> = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = item.firstIndex(of: "=") else {
                throw Self.invalid("the option '\(item)' has no value; write NAME=VALUE")
            }
            let name = try Self.decoded(item[..<equals], part: "option name")
            let value = try Self.decoded(item[item.index(after: equals)...], part: "value of the option '\(name)'")
            guard seen.insert(name).inserted else {
                throw Self.invalid("the option '\(name)' is given twice")
            }
            switch name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw Self.invalid("sslmode '\(value)' is not one of \(modes)")
                }
                tls = mode
            case "pool":
                guard Self.isDigits(Substring(value)), let size = Int(value), Self.poolSizes.contains(size) else {
                    throw Self.invalid("pool '\(value)' is not a number of connections from \(Self.poolSizes.lowerBound) to \(Self.poolSizes.upperBound)")
                }
                poolSize = size
            case "schema":
                try Self.checkName(value, part: "schema")
                schema = value
            case "catchup":
                guard let seconds = Double(value), Self.catchUpIntervals.contains(seconds) else {
                    throw Self.invalid("catchup '\(value)' is not a number of seconds from \(Self.catchUpIntervals.lowerBound) to \(Self.catchUpIntervals.upperBound)")
                }
                catchUpInterval = seconds
            default:
                throw Self.invalid("the option '\(name)' is unknown; the options are sslmode, pool, schema and catchup")
            }
        }
    }

    private static func hostAndPort(_ text: Substring) throws -> (String, Int) {
        var hostText = text
        var portText: Substring?
        if text.hasPrefix("[") {
            // An IPv6 address: [::1]:5432.
            guard let close = text.firstIndex(of: "]") else {
                throw invalid("the host '\(text)' opens '[' without closing it")
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected '\(after)' after the host '[\(hostText)]'") }
                portText = after.dropFirst()
            }
            guard !hostText.isEmpty, hostText.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw invalid("the host '[\(hostText)]' is not an IPv6 address")
            }
        } else if let colon = text.firstIndex(of: ":") {
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !hostText.isEmpty else { throw invalid("it names no host; write postgres://user@HOST/database") }
        let hostCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:")
        guard hostText.unicodeScalars.allSatisfy(hostCharacters.contains) else {
            throw invalid("the host '\(hostText)' is not a host name or IP address")
        }
        guard let portText else { return (String(hostText), defaultPort) }
        guard isDigits(portText), let port = Int(portText), (1...65535).contains(port) else {
            throw invalid("the port '\(portText)' is not a number from 1 to 65535")
        }
        return (String(hostText), port)
    }

    private static func decoded(_ text: Substring, part: String) throws -> String {
        guard let value = String(text).removingPercentEncoding else {
            throw invalid("the \(part) '\(text)' has a malformed percent escape")
        }
        return value
    }

    /// Like `decoded`, but an error does not quote the password.
    private static func decodedPassword(_ text: Substring) throws -> String {
        guard let value = String(text).removingPercentEncoding else {
            throw invalid("the password has a malformed percent escape (write a literal '%' as %25)")
        }
        return value
    }

    private static func checkName(_ name: String, part: String) throws {
        guard !name.isEmpty else {
            throw invalid(part == "database" ? "it names no database; add /DATABASE after the host" : "the \(part) is empty")
        }
        guard !name.unicodeScalars.contains("\0") else { throw invalid("the \(part) contains a NUL character") }
        guard name.utf8.count <= maximumNameBytes else {
            throw invalid("the \(part) '\(name)' is \(name.utf8.count) bytes long; PostgreSQL names hold at most \(maximumNameBytes) (it would truncate it)")
        }
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }

    /// Percent-encodes all but RFC 3986's unreserved characters.
    private static func encoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static func invalid(_ problem: String) -> PersistentStoreError {
        PersistentStoreError(PersistentStoreError.invalidStoreURL, "Invalid PostgreSQL store URL: \(problem).")
    }
}
#endif
