public import ExampleSupport
import Foundation
public import Logging
public import OpenCoreData

/// The scoreboard behind the page: a container, its view context, and a fetched results
/// controller on it whose change batches go, numbered, to every open page.
///
/// Writes (a win, a new team) run on background contexts and save; the view context merges each
/// save automatically, the controller turns the merge into one batch, and every subscriber hears
/// it. So a commit from anywhere reaches every page the same way: a request's or the simulator's
/// save in this process, and the commits of another server on the same store (an SQLite file, or
/// a PostgreSQL database the servers share from any machine), which the library's change feed
/// merges into the view context as they land.
///
/// ```swift
/// let scoreboard = try await Scoreboard.open(.file(storeURL))
/// let subscription = await scoreboard.subscribe()   // a snapshot, then batches
/// _ = try await scoreboard.addWin(to: "p3")
/// ```
///
/// Unchecked Sendable: the controller and the view context are used only on the view context's
/// queue (inside its `perform`), and the broadcaster guards its own state.
public final class Scoreboard: @unchecked Sendable {
    /// The stack: model, coordinator, store.
    public let container: PersistentContainer
    /// The controller the pages follow, on the view context.
    let controller: FetchedResultsController<Team>
    let broadcaster: ScoreboardBroadcaster
    /// The store's identifier, which team IDs are completed with.
    private let storeIdentifier: String
    /// Taken around a check and the save that depends on it (a new team's name, the seed), by
    /// every scoreboard on the same store, in this process or another.
    let writeLock: StoreWriteLock
    /// Where a request that cannot be carried out is reported.
    let logger: Logger
    /// How many times a write is tried when its save meets a concurrent save of the same team.
    static let writeAttempts = 5
    /// Runs in a write's context just before it saves: a test's way in, to save a concurrent
    /// change of the same team at that moment.
    package let willSave = Locked<(@Sendable (ManagedObjectContext) throws -> Void)?>(nil)

    /// The section key path: teams are sectioned by zone.
    public static let sectionNameKeyPath = "qualifyingZone"

    /// A scoreboard on a container whose store is loaded; the controller fetches at once.
    ///
    /// Sets `automaticallyMergesChangesFromParent` on the container's view context, so that
    /// background saves reach the controller.
    ///
    /// The container's store must be loaded: a scoreboard without one stops the program.
    ///
    /// - Parameters:
    ///   - container: The stack, its store loaded.
    ///   - logger: Where requests that fail are reported (with the reason their client gets).
    /// - Throws: What the controller's fetch throws.
    public init(container: PersistentContainer, logger: Logger = Logger(label: "worldcup")) async throws {
        let store = container.persistentStoreCoordinator.persistentStores.first
        precondition(store != nil, "load the container's store (loadPersistentStores()) before making a Scoreboard")
        self.container = container
        self.logger = logger
        storeIdentifier = store?.identifier ?? ""
        writeLock = Self.writeLock(of: container)
        let broadcaster = ScoreboardBroadcaster()
        self.broadcaster = broadcaster
        let view = container.viewContext
        controller = try await view.perform {
            view.automaticallyMergesChangesFromParent = true
            let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: view,
                                                      sectionNameKeyPath: Self.sectionNameKeyPath, cacheName: nil)
            controller.delegate = broadcaster
            try controller.performFetch()
            return controller
        }
    }

    /// Opens (creating if needed) the store at `location`, seeds it with `seeds` when it has no
    /// team, and makes a scoreboard on it.
    ///
    /// Several servers may start on one new store at once: the check for an empty store and the
    /// seeding are one step under the store's write lock, so exactly one of them seeds it.
    ///
    /// - Parameters:
    ///   - location: The store; by default ``WorldCupStore``'s file in the user's data directory.
    ///   - seeds: The teams of a new store; by default the bundled `seed.json`.
    ///   - logger: Where requests that fail are reported.
    /// - Throws: `ToolError` naming the store when it cannot be opened; what reading the seed
    ///   or saving throws.
    public static func open(_ location: StoreLocation = WorldCupStore.defaultLocation, seeds: [TeamSeed]? = nil,
                            logger: Logger = Logger(label: "worldcup")) async throws -> Scoreboard {
        let container = try WorldCupStore.open(location)
        let seeds = try seeds ?? TeamSeed.bundled()
        // Seeded before the controller fetches, so that a page's first snapshot is the seed (batch 0).
        try await writeLock(of: container).withLock {
            let context = container.newBackgroundContext()
            _ = try await context.perform { try TeamSeed.insert(seeds, into: context) }
        }
        return try await Scoreboard(container: container, logger: logger)
    }

    /// The write lock of the container's store: its file's, the PostgreSQL store's advisory
    /// lock, or this process's alone for an in-memory store.
    private static func writeLock(of container: PersistentContainer) -> StoreWriteLock {
        StoreWriteLock(store: container.persistentStoreCoordinator.persistentStores.first)
    }

    /// The table the pages show now, with the number of the last batch it includes.
    public func snapshot() async -> (seq: Int, table: Table) {
        await container.viewContext.perform { (self.broadcaster.sequenceNumber, Table(self.controller)) }
    }

    /// The table as a fresh fetch sees it: a new context, a new controller, the store's rows now.
    ///
    /// - Throws: What the fetch throws.
    public func freshTable() async throws -> Table {
        let context = container.newBackgroundContext()
        return try await context.perform {
            let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: context,
                                                      sectionNameKeyPath: Self.sectionNameKeyPath, cacheName: nil)
            try controller.performFetch()
            return Table(controller)
        }
    }

    /// The object ID a team ID names: a ``TeamRow/id`` such as `p12`, or the object ID's whole
    /// URI. Nil when it names no team of this store (the team may still be gone).
    public func objectID(forTeamID teamID: String) -> ManagedObjectID? {
        let uri: String
        if teamID.hasPrefix("x-coredata:") {
            uri = teamID
        } else {
            // Only `p` and digits, so that the ID cannot reach into another part of the URI.
            guard teamID.count > 1, teamID.count <= 20, teamID.first == "p", teamID.dropFirst().allSatisfy(\.isASCIIDigit) else { return nil }
            uri = "x-coredata://\(storeIdentifier)/\(Team.entityName)/\(teamID)"
        }
        guard let url = URL(string: uri), let id = container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: url),
              id.entity.name == Team.entityName else { return nil }
        return id
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
