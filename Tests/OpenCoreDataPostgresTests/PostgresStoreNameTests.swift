#if Postgres
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// PostgreSQL truncates names past 63 bytes without a word; the store refuses a model that
/// needs one, naming it, before it touches the server. And the stores it cannot or must not
/// open: a database not in UTF-8, a schema of someone else's tables, a read-only store to create.
@Suite struct PostgresStoreNameTests {
    /// A model needing one name of 64 bytes or more, that name, and what the error says needs it.
    struct LongName: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let name: String
        let owner: String
        let make: @Sendable () -> ManagedObjectModel
    }

    static let longNames: [LongName] = {
        let n64 = String(repeating: "n", count: 64)
        let e55 = "E" + String(repeating: "e", count: 54)
        let a60 = String(repeating: "a", count: 60)
        let i53 = String(repeating: "i", count: 53)
        let r60 = String(repeating: "r", count: 60)
        let (c25, d25) = (String(repeating: "c", count: 25), String(repeating: "d", count: 25))
        return [
            LongName(testDescription: "entity", name: "T" + n64.dropFirst(), owner: "entity 'T\(n64.dropFirst())'") {
                oneEntityModel("T" + n64.dropFirst())
            },
            LongName(testDescription: "primary key of a 55-byte entity", name: "_ocd_key_\(e55)", owner: "the primary key of entity '\(e55)'") {
                oneEntityModel(e55)
            },
            LongName(testDescription: "attribute", name: "x" + n64.dropFirst(), owner: "Team.x\(n64.dropFirst())") {
                oneEntityModel("Team", attributes: ["x" + n64.dropFirst()])
            },
            LongName(testDescription: "subentity's column", name: "Sub_\(a60)", owner: "Sub.\(a60)") {
                let team = EntityDescription(name: "Team")
                let sub = EntityDescription(name: "Sub")
                sub.properties = [AttributeDescription(name: a60, type: .string)]
                team.subentities = [sub]
                return ManagedObjectModel(entities: [team, sub])
            },
            LongName(testDescription: "index", name: "_ocd_index_Team_\(i53)", owner: "attribute Team.\(i53)") {
                oneEntityModel("Team", attributes: [i53], indexed: true)
            },
            LongName(testDescription: "join table", name: "_Team_\(r60)", owner: "the join table of relationship Team.\(r60)") {
                let team = EntityDescription(name: "Team")
                team.properties = [RelationshipDescription(name: r60, destination: team, toMany: true)]
                return ManagedObjectModel(entities: [team])
            },
            LongName(testDescription: "uniqueness constraint", name: "_ocd_unique_Team_\(c25),\(d25)",
                     owner: "uniqueness constraint Team(\(c25), \(d25))") {
                oneEntityModel("Team", attributes: [c25, d25], constraint: [c25, d25])
            },
        ]
    }()

    @Test(arguments: longNames)
    func nameLongerThan63BytesIsRefused(_ long: LongName) throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        #expect(long.name.utf8.count > 63)
        #expect {
            try schema.load(long.make())
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == ModelError.invalidName
                && error.message.hasPrefix("\(long.owner) needs the PostgreSQL name '\(long.name)', which is \(long.name.utf8.count) bytes long; PostgreSQL names hold at most 63 bytes")
        }
        // Refused before anything was made.
        #expect(try schema.rows("SELECT nspname::text FROM pg_namespace WHERE nspname = '\(schema.name)'").isEmpty)
    }

    /// The longest names that fit: a 54-byte entity (its primary key is `_ocd_key_` and 54
    /// bytes) with a 63-byte attribute, kept whole.
    @Test func namesOf63BytesAreKeptWhole() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        let entity = "E" + String(repeating: "e", count: 53), attribute = String(repeating: "a", count: 63)
        _ = try schema.load(oneEntityModel(entity, attributes: [attribute]))
        let catalog = try schema.catalog()
        #expect(catalog.contains("r \(entity)"))
        #expect(catalog.contains("column \(entity).\(attribute) text collate C"))
        #expect(catalog.contains("i _ocd_key_\(entity)"))
    }

    /// A server older than PostgreSQL 13 (without `pg_current_xact_id`) is refused at load,
    /// naming its version; the test server (15 or later) and later versions are accepted.
    @Test(arguments: [("90624", "9.6"), ("120017", "12"), ("", "unknown"), ("13beta", "unknown"), ("130000", nil), ("150018", nil), ("170002", nil)] as [(String, String?)])
    func serverOlderThan13IsRefused(versionNumber: String, refused: String?) throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        let backend = try PostgresStoreBackend(description: schema.description())
        defer { backend.close() }
        if let refused {
            #expect {
                try backend.checkServerVersion(versionNumber)
            } throws: { error in
                let error = error as? PersistentStoreError
                return error?.code == PersistentStoreError.cannotOpen
                    && error?.message.contains("version \(refused); the PostgreSQL store needs version 13 or later") == true
            }
        } else {
            try backend.checkServerVersion(versionNumber)
        }
        // The server the tests run on passes the check: the store loads.
        #expect(throws: Never.self) { try schema.load(leagueModel()) }
    }

    /// A database whose encoding is not UTF-8 is refused, naming its encoding.
    @Test func nonUTF8DatabaseIsRefused() throws {
        let admin = try TestServer.pool("pool=1")
        defer { admin.close() }
        let database = "ocd_latin1_" + UUID().uuidString.prefix(8).lowercased()
        _ = try admin.query(PostgresQuery(unsafeSQL:
            "CREATE DATABASE \(database) ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"))
        defer { _ = try? admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")) }
        let container = PersistentContainer(name: "League", managedObjectModel: leagueModel())
        container.persistentStoreDescriptions = [try PersistentStoreDescription(postgres: Self.server(database: database))]
        #expect {
            try container.loadPersistentStores()
        } throws: { error in
            let error = error as? PersistentStoreError
            return error?.code == PersistentStoreError.unsupportedDatabaseEncoding
                && error?.message == "the database '\(database)' is encoded in LATIN1; the PostgreSQL store needs UTF8 (CREATE DATABASE … ENCODING 'UTF8')"
        }
    }

    /// The test server's URL, with another database.
    static func server(database: String) throws -> String {
        let server = try TestServer.url()
        let original = try PostgresStoreURL(server)
        let path = "/\(original.database)"
        guard let range = server.range(of: path, options: .backwards) else { return server }
        return server.replacingCharacters(in: range, with: "/\(database)")
    }

    /// A schema holding tables the store did not make is not taken over.
    @Test func schemaOfOtherTablesIsRefused() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        try schema.execute("CREATE SCHEMA \"\(schema.name)\"")
        try schema.execute("CREATE TABLE \(schema.qualified("invoices")) (id int)")
        let before = try schema.catalog()
        #expect {
            try schema.load(leagueModel())
        } throws: { error in
            let error = error as? PersistentStoreError
            return error?.code == PersistentStoreError.invalidStoreFile
                && error?.message.contains("was not made by OpenCoreData (it has tables invoices)") == true
        }
        #expect(try schema.catalog() == before)
    }

    /// A read-only description opens a store made by the same model, writing nothing; it does
    /// not create one, nor migrate one.
    @Test func readOnlyLoads() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        #expect {
            try schema.load(leagueModel()) { $0.isReadOnly = true }
        } throws: { error in
            (error as? PersistentStoreError)?.code == PersistentStoreError.invalidStoreFile
        }
        #expect(try schema.rows("SELECT nspname::text FROM pg_namespace WHERE nspname = '\(schema.name)'").isEmpty)
        let identifier = try schema.load(leagueModel()).persistentStoreCoordinator.persistentStores.first?.identifier
        let before = try schema.catalog()
        let readOnly = try schema.load(leagueModel()) { $0.isReadOnly = true }
        #expect(readOnly.persistentStoreCoordinator.persistentStores.first?.identifier == identifier)
        #expect(readOnly.persistentStoreCoordinator.persistentStores.first?.isReadOnly == true)
        #expect {
            try schema.load(leagueModel([.addCoach])) { $0.isReadOnly = true }
        } throws: { error in
            let error = error as? PersistentStoreError
            return error?.code == PersistentStoreError.incompatibleModel && error?.message.contains("a read-only store cannot be migrated") == true
        }
        #expect(try schema.catalog() == before)
    }
}
/// One entity of string attributes.
private func oneEntityModel(_ entityName: String, attributes: [String] = ["name"], indexed: Bool = false,
                            constraint: [String]? = nil) -> ManagedObjectModel {
    let entity = EntityDescription(name: entityName)
    entity.properties = attributes.map { AttributeDescription(name: $0, type: .string, isIndexed: indexed) }
    if let constraint { entity.uniquenessConstraints = [constraint] }
    return ManagedObjectModel(entities: [entity])
}
#endif
