public import Foundation

/// A store of a test's own for the example tools and servers it runs: an SQLite file in a
/// directory of its own, or, in a build with the `Postgres` trait, a schema of its own on the
/// PostgreSQL server of `OCD_POSTGRES_URL` (which `Scripts/test` starts). The directory also
/// holds what the processes print; both are removed when the location is released.
///
/// ```swift
/// let store = try ScratchStoreLocation(.postgres, fileName: "WorldCup.sqlite")
/// // worldcup --store \(store.argument)
/// ```
public final class ScratchStoreLocation: Sendable {
    public enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        case sqlite
        #if Postgres
        case postgres
        #endif

        public var description: String { rawValue }
    }

    /// Why a PostgreSQL location cannot be made.
    public struct MissingServer: Error, CustomStringConvertible {
        public let description = "set \(ScratchStoreLocation.postgresServerVariable) to a PostgreSQL server the tests may write to (Scripts/test starts one)"
    }

    /// The variable naming the PostgreSQL server the tests may write to.
    public static let postgresServerVariable = "OCD_POSTGRES_URL"

    public let kind: Kind
    /// A directory of the test's own.
    public let directory: URL
    /// What `--store` says: the file's path, or the schema's URL.
    public let argument: String
    /// The server's URL and the schema, for a PostgreSQL store.
    private let postgres: (server: String, schema: String)?

    /// - Parameters:
    ///   - kind: The store's kind.
    ///   - fileName: The SQLite file's name in the directory.
    /// - Throws: ``MissingServer`` for PostgreSQL without `OCD_POSTGRES_URL`: the tests of a
    ///   PostgreSQL build fail rather than skip without their server.
    public init(_ kind: Kind = .sqlite, fileName: String) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("OpenCoreDataExamples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch kind {
        case .sqlite:
            argument = directory.appendingPathComponent(fileName).path
            postgres = nil
        #if Postgres
        case .postgres:
            guard let server = ProcessInfo.processInfo.environment[Self.postgresServerVariable], !server.isEmpty else {
                throw MissingServer()
            }
            let schema = "examples_" + UUID().uuidString.prefix(8).lowercased()
            argument = server + (server.contains("?") ? "&" : "?") + "schema=" + schema
            postgres = (server, schema)
        #endif
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
        if let postgres { Self.drop(schema: postgres.schema, on: postgres.server) }
    }

    /// Drops a test's schema with `psql`, so that a user's own server keeps no test tables (a
    /// throwaway server is removed whole anyway).
    private static func drop(schema: String, on server: String) {
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = ["psql", server, "--quiet", "--command", "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE"]
        psql.standardOutput = FileHandle.nullDevice
        psql.standardError = FileHandle.nullDevice
        try? psql.run()
        psql.waitUntilExit()
    }
}
