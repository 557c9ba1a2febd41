#if Postgres
import Dispatch
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// Loading a PostgreSQL store: creating it from the model, reopening it, lightweight migration
/// and its refusals, each on a PostgreSQL schema of its own (``TestStoreSchema``). Saves did not
/// exist when these were written, so rows are written with plain SQL.
/// Values appended from several threads at once.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []

    func append(_ value: Value) { lock.withLock { items.append(value) } }
    var values: [Value] { lock.withLock { items } }
}

@Suite struct PostgresStoreLoadTests {
    /// A new store gets the model's tables, typed as Docs/PostgresStore.md's table says, with the
    /// store's own tables, key sequences and indexes; reopening it with the same model keeps its
    /// identifier and changes nothing.
    @Test func newStoreIsCreatedAndReopened() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        let container = try schema.load(leagueModel())
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.type == .postgreSQL)
        #expect(store.type.rawValue == PostgreSQLStoreType)
        #expect(UUID(uuidString: store.identifier) != nil)
        #expect(store.url?.absoluteString.hasSuffix("schema=\(schema.name)") == true)
        let catalog = try schema.catalog()
        for line in [
            "r Team", "r Player", "r _Player_rivals", "r _ocd_metadata", "r _ocd_generation",
            "S _ocd_pk_Team", "S _ocd_pk_Player",
            "column Team._pk bigint not null", "column Team._entity bigint not null", "column Team._version bigint not null",
            "column Team.name text collate C", "column Team.wins integer", "column Team.founded double precision",
            "column Player.number smallint", "column Player.team bigint", "column Player._team_entity bigint",
            "column _Player_rivals.source bigint not null", "column _Player_rivals.target_entity bigint not null",
            "index CREATE UNIQUE INDEX \"_ocd_key_Team\" ON \(schema.name).\"Team\" USING btree (_pk)",
            "index CREATE INDEX \"_ocd_index_Team_name\" ON \(schema.name).\"Team\" USING btree (name NULLS FIRST)",
            "index CREATE INDEX \"_ocd_index_Player_team\" ON \(schema.name).\"Player\" USING btree (team NULLS FIRST)",
            "index CREATE INDEX \"_ocd_index__Player_rivals_target\" ON \(schema.name).\"_Player_rivals\" USING btree (target, source)",
        ] {
            #expect(catalog.contains(line), "missing: \(line)")
        }
        #expect(try schema.rows("SELECT \"value\"::text FROM \(schema.qualified("_ocd_generation"))") == ["0"])
        #expect(catalog.contains("metadata storeUUID = \(store.identifier)"))

        for _ in 0..<2 {
            let reopened = try schema.load(leagueModel())
            #expect(reopened.persistentStoreCoordinator.persistentStores.first?.identifier == store.identifier)
            #expect(try schema.catalog() == catalog)
        }
    }

    /// The store's URL, its description and its errors never show the password.
    @Test func passwordIsNeverShown() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        let (url, password) = try schema.urlWithPassword()
        #expect(url.contains(":\(password)@"))
        func load(_ model: ManagedObjectModel) throws -> PersistentContainer {
            let container = PersistentContainer(name: "League", managedObjectModel: model)
            container.persistentStoreDescriptions = [try PersistentStoreDescription(postgres: url)]
            try container.loadPersistentStores()
            return container
        }
        let store = try #require(try load(leagueModel()).persistentStoreCoordinator.persistentStores.first)
        let shown = try #require(store.url)
        #expect(shown.scheme == "postgres")
        #expect(shown.password == "***")
        for text in [shown.absoluteString, "\(store)", String(reflecting: store)] {
            #expect(!text.contains(password), "\(text)")
        }
        let error = #expect(throws: PersistentStoreError.self) { try load(leagueModel([.removeWins])) }
        #expect(error?.url == shown)
        #expect(error.map { "\($0)".contains(password) } == false)
    }

    /// Every attribute type gets the column type that makes PostgreSQL compare as memory does.
    @Test func columnTypes() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        let expected: [(AttributeType, String)] = [
            (.integer16, "smallint"), (.integer32, "integer"), (.integer64, "bigint"), (.boolean, "smallint"),
            (.double, "double precision"), (.float, "double precision"), (.date, "double precision"),
            (.decimal, "numeric"), (.string, "text collate C"), (.uri, "text collate C"),
            (.binaryData, "bytea"), (.uuid, "uuid"),
        ]
        let entity = EntityDescription(name: "Everything")
        entity.properties = expected.map { type, _ in AttributeDescription(name: "\(type)", type: type) }
        _ = try schema.load(ManagedObjectModel(entities: [entity]))
        let catalog = try schema.catalog()
        for (type, column) in expected {
            #expect(catalog.contains("column Everything.\(type) \(column)"), "\(type)")
        }
    }

    /// Version 2 adds an optional attribute, a defaulted one, an entity, a subentity, an index and
    /// a uniqueness constraint, and makes an attribute required with a default: the store
    /// migrates in place and keeps the rows written before, filled with the defaults.
    @Test func lightweightMigrationKeepsRows() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        let first = try schema.load(leagueModel())
        let identifier = try #require(first.persistentStoreCoordinator.persistentStores.first?.identifier)
        let team = try schema.entityCode("Team")
        try schema.execute("""
            INSERT INTO \(schema.qualified("Team")) ("_pk", "_entity", "_version", "name", "wins", "city")
            VALUES (1, \(team), 1, 'Brazil', 5, 'Rio'), (2, \(team), 1, 'Chile', 2, NULL)
            """)
        let changes: Set<LeagueChange> = [.addCoach, .addRating, .addStadiumEntity, .addClubSubentity, .addWinsIndex,
                                          .addNameConstraint, .requiredCityWithDefault]
        let second = try schema.load(leagueModel(changes))
        #expect(second.persistentStoreCoordinator.persistentStores.first?.identifier == identifier)
        #expect(try schema.rows("""
            SELECT name, wins::text, city, coach, rating::text, "Club_budget"::text FROM \(schema.qualified("Team")) ORDER BY "_pk"
            """) == ["Brazil | 5 | Rio | nil | 3 | nil", "Chile | 2 | Nowhere | nil | 3 | nil"])
        let catalog = try schema.catalog()
        for line in [
            "r Stadium", "S _ocd_pk_Stadium", "column Stadium.capacity bigint", "column Team.Club_budget numeric",
            "column Team.coach text collate C",
            "index CREATE INDEX \"_ocd_index_Team_byWins\" ON \(schema.name).\"Team\" USING btree (wins DESC NULLS LAST, name NULLS FIRST)",
            "index CREATE UNIQUE INDEX \"_ocd_unique_Team_name\" ON \(schema.name).\"Team\" USING btree (name)",
        ] {
            #expect(catalog.contains(line), "missing: \(line)")
        }
        // The added column's default is in its DDL, for rows other programs insert.
        #expect(catalog.contains { $0.hasPrefix("column Team.rating smallint default ") })
        #expect(try schema.entityCode("Stadium") > schema.entityCode("Player"))
        // Reopening with version 2 changes nothing; version 1 no longer opens it.
        _ = try schema.load(leagueModel(changes))
        #expect(try schema.catalog() == catalog)
        #expect(throws: PersistentStoreError.self) { try schema.load(leagueModel()) }
    }

    /// Index changes alone migrate too: a changed index is made again, a removed one dropped.
    @Test func indexesFollowTheModel() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel([.addWinsIndex]))
        #expect(try schema.catalog().contains { $0.contains("_ocd_index_Team_byWins") })
        _ = try schema.load(leagueModel())
        #expect(try !schema.catalog().contains { $0.contains("_ocd_index_Team_byWins") })
    }

    /// Differences no lightweight migration can make, and what the error must say of each.
    static let refusals: [(LeagueChange, String)] = [
        (.removeWins, "attribute Team.wins was removed"),
        (.winsAsString, "attribute Team.wins changed type"),
        (.removePlayerEntity, "entity Player was removed"),
        (.addRequiredCountry, "attribute Team.country was added as required without a default value"),
    ]

    /// An incompatible model throws the SQLite store's incompatible-model error, listing the
    /// difference, and the store is left exactly as it was.
    @Test(arguments: refusals)
    func incompatibleModelThrowsAndChangesNothing(change: LeagueChange, fragment: String) throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel())
        try schema.execute("""
            INSERT INTO \(schema.qualified("Team")) ("_pk", "_entity", "_version", "name", "wins")
            VALUES (1, \(try schema.entityCode("Team")), 1, 'Brazil', 5)
            """)
        let before = try schema.catalog()
        // With an additive change beside it, so that a migration would have had something to do.
        #expect {
            try schema.load(leagueModel([change, .addCoach, .addStadiumEntity]))
        } throws: { error in
            guard let error = error as? PersistentStoreError, error.code == PersistentStoreError.incompatibleModel else { return false }
            return error.message.contains("the store was made by") && error.message.contains(fragment)
                && error.url?.scheme == "postgres"
        }
        #expect(try schema.catalog() == before)
        #expect(try schema.rows("SELECT name FROM \(schema.qualified("Team"))") == ["Brazil"])
    }

    /// A migration that fails half-way (rows break a uniqueness constraint being added, after a
    /// column was added) rolls back whole: the store is as it was.
    /// An attribute renamed with a renaming identifier keeps its values: the column is renamed.
    @Test func renamingAnAttributeKeepsItsValues() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel())
        let team = try schema.entityCode("Team")
        try schema.execute("""
            INSERT INTO \(schema.qualified("Team")) ("_pk", "_entity", "_version", "name", "wins")
            VALUES (1, \(team), 1, 'Brazil', 5), (2, \(team), 1, 'Chile', 2)
            """)
        _ = try schema.load(leagueModel([.renameWinsToVictories]))
        #expect(try schema.rows("SELECT name, victories::text FROM \(schema.qualified("Team")) ORDER BY \"_pk\"") == ["Brazil | 5", "Chile | 2"])
        #expect(try !schema.catalog().contains { $0.hasPrefix("column Team.wins ") })
    }

    @Test func renamingARelationshipKeepsItsLinks() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel())
        let team = try schema.entityCode("Team")
        let player = try schema.entityCode("Player")
        try schema.execute("""
            INSERT INTO \(schema.qualified("Team")) ("_pk", "_entity", "_version", "name", "wins") VALUES (1, \(team), 1, 'Brazil', 5)
            """)
        try schema.execute("""
            INSERT INTO \(schema.qualified("Player")) ("_pk", "_entity", "_version", "name", "team", "_team_entity")
            VALUES (1, \(player), 1, 'Pelé', 1, \(team))
            """)
        _ = try schema.load(leagueModel([.renameTeamToClub]))
        #expect(try schema.rows("SELECT name, club::text FROM \(schema.qualified("Player"))") == ["Pelé | 1"])
        #expect(try !schema.catalog().contains { $0.hasPrefix("column Player.team ") })
    }

    @Test func renamingAnEntityKeepsItsRows() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel())
        let player = try schema.entityCode("Player")
        try schema.execute("""
            INSERT INTO \(schema.qualified("Player")) ("_pk", "_entity", "_version", "name") VALUES (1, \(player), 1, 'Pelé'), (2, \(player), 1, 'Garrincha')
            """)
        try schema.execute("INSERT INTO \(schema.qualified("_Player_rivals")) VALUES (1, \(player), 2, \(player))")
        _ = try schema.load(leagueModel([.renamePlayerToAthlete]))
        #expect(try schema.entityCode("Athlete") == player)
        #expect(try schema.rows("SELECT name FROM \(schema.qualified("Athlete")) ORDER BY \"_pk\"") == ["Pelé", "Garrincha"])
        #expect(try schema.rows("SELECT count(*)::text FROM \(schema.qualified("_Athlete_rivals"))") == ["1"])
        let catalog = try schema.catalog()
        #expect(!catalog.contains { $0.contains("Player") }, "\(catalog.filter { $0.contains("Player") })")
    }

    /// A process killed while it migrates the store leaves it at the old version or the new one:
    /// the migration is one transaction, which the server rolls back when the client dies. Each
    /// round kills a process opening the store with the new version at another moment (filling
    /// 60,000 rows' new required attribute, adding an entity and a column).
    @Test(.timeLimit(.hang))
    func aMigrationKilledMidwayLeavesTheOldOrTheNewVersion() async throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel())
        let team = try schema.entityCode("Team")
        try schema.execute("""
            INSERT INTO \(schema.qualified("Team")) ("_pk", "_entity", "_version", "name", "wins")
            SELECT n, \(team), 1, 'Team ' || n, n % 50 FROM generate_series(1, 60000) AS n
            """)
        let newVersion: Set<LeagueChange> = [.requiredCityWithDefault, .addStadiumEntity, .addCoach]
        let url = try schema.url()
        var outcomes: [String] = []
        for delay in [0, 40, 100, 200, 350, 600, 1_000] {
            await #expect(processExitsWith: .signal(SIGKILL)) { [url = url as String, delay = delay as Int] in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { kill(getpid(), SIGKILL) }
                let container = PersistentContainer(name: "League", managedObjectModel: leagueModel([.requiredCityWithDefault, .addStadiumEntity, .addCoach]))
                if let description = try? PersistentStoreDescription(postgres: url) {
                    container.persistentStoreDescriptions = [description]
                    try? container.loadPersistentStores()
                }
                kill(getpid(), SIGKILL)
            }
            let cities = "SELECT coalesce(city, 'nil') || ' ' || count(*) FROM \(schema.qualified("Team")) GROUP BY city"
            if (try? schema.load(leagueModel())) != nil {
                #expect(try schema.rows(cities) == ["nil 60000"], "killed after \(delay) ms: the old version's rows changed")
                #expect(try !schema.catalog().contains("r Stadium"))
                outcomes.append("old after \(delay) ms")
            } else {
                _ = try schema.load(leagueModel(newVersion))
                #expect(try schema.rows(cities) == ["Nowhere 60000"], "killed after \(delay) ms: the migration is incomplete")
                outcomes.append("new after \(delay) ms")
                break
            }
        }
        _ = try schema.load(leagueModel(newVersion))
        print("interrupted PostgreSQL migration: \(outcomes.joined(separator: "; "))")
    }

    @Test func failedMigrationRollsBackEverything() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel())
        let team = try schema.entityCode("Team")
        try schema.execute("""
            INSERT INTO \(schema.qualified("Team")) ("_pk", "_entity", "_version", "name", "wins")
            VALUES (1, \(team), 1, 'Brazil', 5), (2, \(team), 1, 'Brazil', 1)
            """)
        let before = try schema.catalog()
        #expect {
            try schema.load(leagueModel([.addCoach, .addStadiumEntity, .addNameConstraint]))
        } throws: { error in
            let error = error as? PersistentStoreError
            return error?.code == PersistentStoreError.migrationConstraintViolation
                && error?.message.contains("Team(name)") == true && error?.message.contains("Brazil") == true
        }
        #expect(try schema.catalog() == before)
    }

    /// A store a model of another name made is refused, as SQLite refuses it.
    @Test func anotherModelIsRefused() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        _ = try schema.load(leagueModel(), name: "League")
        let before = try schema.catalog()
        #expect {
            try schema.load(leagueModel([.addCoach]), name: "Other")
        } throws: { error in
            let error = error as? PersistentStoreError
            return error?.code == PersistentStoreError.incompatibleModel && error?.message.contains("another model than 'League'") == true
        }
        #expect(try schema.catalog() == before)
    }

    /// Several servers loading one new store at once: each load waits for the one before it
    /// (the advisory lock), so the store is created once and every load gets its identifier; the
    /// same for several loads migrating it at once. Each backend is connected before the loads
    /// are released together, so that they overlap on the server.
    @Test(.timeLimit(.hang))
    func concurrentLoadsCreateAndMigrateOnce() throws {
        for _ in 0..<3 {
            let schema = try TestStoreSchema()
            defer { schema.drop() }
            var identifiers: Set<String> = []
            for changes in [Set<LeagueChange>(), [.addCoach, .addStadiumEntity, .addWinsIndex, .addNameConstraint]] {
                identifiers.formUnion(try loadAtOnce(6, compiled(leagueModel(changes)), in: schema))
            }
            #expect(identifiers.count == 1)
            #expect(try schema.rows("SELECT count(*)::text FROM \(schema.qualified("_ocd_metadata")) WHERE \"key\" = 'storeUUID'") == ["1"])
            #expect(try schema.catalog().contains("r Stadium"))
        }
    }

    /// `model`, compiled (as loading a store compiles it), for backends used without a coordinator.
    private func compiled(_ model: ManagedObjectModel) throws -> ManagedObjectModel {
        try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .inMemory, at: nil)
        return model
    }

    /// Loads the store of `schema` with `count` backends at once, each on a thread of its own;
    /// every load must succeed. Returns the identifiers they got.
    private func loadAtOnce(_ count: Int, _ model: ManagedObjectModel, in schema: TestStoreSchema) throws -> Set<String> {
        let backends = try (0..<count).map { _ in try PostgresStoreBackend(description: schema.description()) }
        defer { for backend in backends { backend.close() } }
        for backend in backends { _ = try backend.pool.query("SELECT 1") }
        let collected = Collected<Result<String, any Error>>()
        let done = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for (index, backend) in backends.enumerated() {
            // A queue each (overcommitting: a thread each, whatever the number of cores).
            DispatchQueue(label: "load \(index)").async(group: done) {
                start.wait()
                collected.append(Result { try backend.load(model: model) })
            }
        }
        for _ in 0..<count { start.signal() }
        done.wait()
        var identifiers: Set<String> = []
        for result in collected.values {
            switch result {
            case .success(let identifier): identifiers.insert(identifier)
            case .failure(let error): Issue.record("a load failed: \(error)")
            }
        }
        #expect(collected.values.count == count)
        return identifiers
    }

    /// Primary keys come from the hierarchy's sequence, so two stores on one schema (two
    /// servers) never hand out the same key, a subentity's from its root's; the generation is
    /// the one row of `_ocd_generation`.
    @Test func keysAndGeneration() throws {
        let schema = try TestStoreSchema()
        defer { schema.drop() }
        let model = try schema.load(leagueModel([.addClubSubentity])).managedObjectModel
        let backends = try (0..<2).map { _ in try PostgresStoreBackend(description: schema.description()) }
        defer { for backend in backends { backend.close() } }
        for backend in backends { _ = try backend.load(model: model) }
        let team = try #require(model.entitiesByName["Team"]), club = try #require(model.entitiesByName["Club"])
        let player = try #require(model.entitiesByName["Player"])
        var keys: [Int64] = []
        for (backend, entity) in [(backends[0], team), (backends[1], club), (backends[0], club)] {
            keys += try backend.allocatePrimaryKeys(for: entity, count: 3)
        }
        #expect(keys == Array(Int64(1)...9))
        #expect(try backends[1].allocatePrimaryKeys(for: player, count: 2) == [1, 2])
        #expect(try backends[1].allocatePrimaryKeys(for: player, count: 0) == [])
        #expect(try backends.map { try $0.generation() } == [0, 0])
        try schema.execute("UPDATE \(schema.qualified("_ocd_generation")) SET \"value\" = 7")
        #expect(try backends.map { try $0.generation() } == [7, 7])
    }
}
#endif
