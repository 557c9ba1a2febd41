#if Postgres
import Foundation
public import OpenCoreData

/// The PostgreSQL store's type, for ``OpenCoreData/PersistentStoreDescription/type``.
///
/// ``OpenCoreData/PersistentStoreDescription/init(postgres:)`` sets it for you. A description
/// made by hand works too, once this constant (or ``OpenCoreData/PersistentStore/StoreType/postgreSQL``)
/// has been read, which registers the store type with the coordinator:
///
/// ```swift
/// let description = PersistentStoreDescription()
/// description.type = PostgreSQLStoreType
/// description.url = URL(string: "postgres://app:secret@db.local/worldcup")
/// ```
public let PostgreSQLStoreType: String = {
    // A global is initialised on first use: whoever names the type has registered it.
    _ = PostgresStoreRegistration.registered
    return PostgresStoreRegistration.typeName
}()

/// Makes the coordinator open stores of ``PostgreSQLStoreType`` with ``PostgresStoreBackend``.
enum PostgresStoreRegistration {
    static let typeName = "PostgreSQL"

    /// Registered once, on first use.
    static let registered: Void = {
        PersistentStoreCoordinator.registerStoreType(typeName) { description in
            try PostgresStoreBackend(description: description)
        }
    }()
}

extension PersistentStore.StoreType {
    /// A PostgreSQL database, through the `OpenCoreDataPostgres` module: ``PostgreSQLStoreType``.
    public static let postgreSQL = PersistentStore.StoreType(rawValue: PostgreSQLStoreType)
}

extension PersistentStoreDescription {
    /// Creates a description of a PostgreSQL store.
    ///
    /// ```swift
    /// import OpenCoreDataPostgres
    /// let description = try PersistentStoreDescription(
    ///     postgres: "postgres://app:secret@db.local:5432/worldcup?sslmode=require&pool=10")
    /// let container = PersistentContainer(name: "WorldCup", managedObjectModel: model)
    /// container.persistentStoreDescriptions = [description]
    /// try container.loadPersistentStores()
    /// ```
    ///
    /// The URL is `postgres://user:password@host:port/database?option=value&…` (or
    /// `postgresql://`), with the user, password and database percent-encoded and the port 5432
    /// when left out. The options:
    /// - `sslmode`: `disable`, `prefer` (the default) or `require`, libpq's names. `require`
    ///   verifies the server's certificate and host name, which is libpq's `verify-full`.
    /// - `pool`: how many connections the store opens at most, 1 to 1,000 (10 by default).
    /// - `schema`: the PostgreSQL schema the store's tables live in (`public` by default), so
    ///   that several stores share a database. Loading creates it.
    /// - `catchup`: how often, in seconds, a process that follows the store's commits checks for
    ///   one whose notification it missed (1 by default, 0.01 to 3,600): the longest a commit of
    ///   another server can take to reach this process's controllers when its `NOTIFY` is lost.
    ///
    /// The database must store text as UTF-8 (`ENCODING 'UTF8'`). The store's
    /// ``OpenCoreData/PersistentStore/url`` shows the URL without its password, and no error or
    /// log shows it. Loading the store creates its tables, or checks that the model may open
    /// them and migrates them (one transaction, under a lock that makes servers starting at once
    /// load one after the other). Contexts fetch, save and merge on it as on SQLite; commits
    /// made by other servers reach contexts that merge automatically, and their controllers,
    /// through the store's `LISTEN` channel.
    ///
    /// - Parameter postgres: The store's URL.
    /// - Throws: ``OpenCoreData/PersistentStoreError`` ``OpenCoreData/PersistentStoreError/invalidStoreURL``,
    ///   naming the part of the URL that is wrong.
    public convenience init(postgres url: String) throws {
        let parsed = try PostgresStoreURL(url)
        // The description keeps a URL; it must say what the string says.
        guard let storeURL = URL(string: url), (try? PostgresStoreURL(storeURL.absoluteString)) == parsed else {
            throw PersistentStoreError(
                PersistentStoreError.invalidStoreURL,
                "Invalid PostgreSQL store URL: it is not a URL Foundation can hold; percent-encode the characters of the user, password and database that URLs do not allow.")
        }
        self.init()
        type = PostgreSQLStoreType
        self.url = storeURL
    }
}
#endif
