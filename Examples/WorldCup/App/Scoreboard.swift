public import ExampleSupport
import Foundation
public import OpenCoreData

/// The scoreboard behind the page: a container, its view context, and a fetched results
/// controller on it whose change batches go, numbered, to every open page.
///
/// Writes (a win, a new team) run on background contexts and save; the view context merges each
/// save automatically, the controller turns the merge into one batch, and every subscriber hears
/// it. So a save from anywhere (a request, the simulator, another process's context on the same
/// coordinator) reaches every page the same way.
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

    /// The section key path: teams are sectioned by zone.
    public static let sectionNameKeyPath = "qualifyingZone"

    /// A scoreboard on a container whose store is loaded; the controller fetches at once.
    ///
    /// Sets `automaticallyMergesChangesFromParent` on the container's view context, so that
    /// background saves reach the controller.
    ///
    /// The container's store must be loaded: a scoreboard without one stops the program.
    ///
    /// - Throws: What the controller's fetch throws.
    public init(container: PersistentContainer) async throws {
        let store = container.persistentStoreCoordinator.persistentStores.first
        precondition(store != nil, "load the container's store (loadPersistentStores()) before making a Scoreboard")
        self.container = container
        storeIdentifier = store?.identifier ?? ""
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
    /// - Parameters:
    ///   - location: The store; by default ``WorldCupStore``'s file in the user's data directory.
    ///   - seeds: The teams of a new store; by default the bundled `seed.json`.
    /// - Throws: `ToolError` naming the store when it cannot be opened; what reading the seed
    ///   or saving throws.
    public static func open(_ location: StoreLocation = WorldCupStore.defaultLocation, seeds: [TeamSeed]? = nil) async throws -> Scoreboard {
        let container = try WorldCupStore.open(location)
        let seeds = try seeds ?? TeamSeed.bundled()
        let context = container.newBackgroundContext()
        _ = try await context.perform { try TeamSeed.insert(seeds, into: context) }
        return try await Scoreboard(container: container)
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
