import Foundation
import OpenCoreData
import Testing

/// Related objects made, changed and deleted in child contexts reach the store as they would had
/// the changes been made in the root context itself. ``ContextDifferentialTests`` covers random
/// graphs; these are the cases found by hand, each named.
@Suite struct ChildContextTests {
    /// How many child levels sit between the editing context and the root.
    static let depths = [1, 2]

    @Test(arguments: StoreKind.withPostgres, depths)
    func newObjectPointingToALaterNewObjectReachesTheStore(kind: StoreKind, depth: Int) throws {
        let stack = try TestStack(kind)
        try ContextChain(stack, depth: depth).edit { context in
            // Each object refers to one inserted after it: the child pushes the referring one first.
            let player = Player.named("Lamptey", in: context)
            let coach = Coach.named("Appiah", in: context)
            let team = Team.named("Ghana", in: context)
            player.team = team
            coach.team = team
        }
        let stored = try StoredGraph(stack)
        #expect(stored.teams == ["Ghana": ["coach": "Appiah", "players": "Lamptey"]])
        #expect(stored.players == ["Lamptey": ["team": "Ghana", "clubs": ""]])
        #expect(stored.coaches == ["Appiah": "Ghana"])
    }

    @Test(arguments: StoreKind.withPostgres, depths)
    func manyToManyBetweenNewObjectsReachesTheStore(kind: StoreKind, depth: Int) throws {
        let stack = try TestStack(kind)
        try ContextChain(stack, depth: depth).edit { context in
            let players = ["Abedi", "Gyan"].map { Player.named($0, in: context) }
            let clubs = ["Marseille", "Sunderland"].map { Club.named($0, in: context) }
            clubs[0].players = Set(players)
            players[1].clubs.insert(clubs[1])
        }
        let stored = try StoredGraph(stack)
        #expect(stored.clubs == ["Marseille": "Abedi,Gyan", "Sunderland": "Gyan"])
        #expect(stored.players["Gyan"]?["clubs"] == "Marseille,Sunderland")
    }

    @Test(arguments: StoreKind.withPostgres, depths)
    func objectsInsertedAndDeletedInTheChildNeverReachTheStore(kind: StoreKind, depth: Int) throws {
        let stack = try TestStack(kind)
        try ContextChain(stack, depth: depth).edit { context in
            let kept = Player.named("Kept", in: context)
            let team = Team.named("Kept team", in: context)
            kept.team = team
            let coach = Coach.named("Gone coach", in: context)
            coach.team = team
            let club = Club.named("Gone club", in: context)
            club.players.insert(kept)
            // Deleting a team cascades to its (new) players.
            let doomed = Team.named("Gone team", in: context)
            Player.named("Cascaded", in: context).team = doomed
            context.delete(coach)
            context.delete(club)
            context.delete(doomed)
        }
        let stored = try StoredGraph(stack)
        #expect(stored.teams == ["Kept team": ["coach": "", "players": "Kept"]])
        #expect(stored.players == ["Kept": ["team": "Kept team", "clubs": ""]])
        #expect(stored.coaches.isEmpty && stored.clubs.isEmpty)
    }

    /// The parent holds the objects (saved and unsaved) that the child changes and deletes; the
    /// cascade runs in the child, and the parent receives both ends of every change.
    @Test(arguments: StoreKind.withPostgres, depths)
    func childChangesAndDeletesObjectsTheParentHolds(kind: StoreKind, depth: Int) throws {
        let stack = try TestStack(kind)
        let chain = ContextChain(stack, depth: depth)
        try chain.root.performAndWait {
            let team = Team.named("Cameroon", in: chain.root)
            for name in ["Milla", "Eto'o"] { Player.named(name, in: chain.root).team = team }
            try chain.root.save()
            // Unsaved in the root when the child starts.
            Coach.named("Nepomniachtchi", in: chain.root).team = team
        }
        try chain.edit { context in
            let team = try #require(try context.all(Team.self).first)
            #expect(team.coach?.name == "Nepomniachtchi")
            let newcomer = Team.named("Nigeria", in: context)
            newcomer.coach = team.coach
            let milla = try #require(team.players.first { $0.name == "Milla" })
            milla.team = newcomer
            context.delete(team)
        }
        let stored = try StoredGraph(stack)
        #expect(stored.teams == ["Nigeria": ["coach": "Nepomniachtchi", "players": "Milla"]])
        #expect(stored.players == ["Milla": ["team": "Nigeria", "clubs": ""]])
        #expect(stored.coaches == ["Nepomniachtchi": "Nigeria"])
    }

    /// The root saves objects a descendant holds under temporary IDs while the descendant is busy
    /// (here: the descendant itself asks the root to save): the rows it reads next, under the
    /// permanent IDs, are the objects it holds, not second copies.
    @Test(arguments: StoreKind.withPostgres, depths)
    func objectsSavedByTheRootKeepOneIdentityBelowIt(kind: StoreKind, depth: Int) throws {
        let stack = try TestStack(kind)
        let chain = ContextChain(stack, depth: depth)
        chain.root.performAndWait { _ = Team.named("Ghana", in: chain.root) }
        try chain.leaf.performAndWait {
            let held = try chain.leaf.all(Team.self)
            #expect(held.count == 1 && held[0].objectID.isTemporaryID)
            try chain.root.performAndWait { try chain.root.save() }
            let read = try chain.leaf.all(Team.self)
            #expect(read.count == 1)
            #expect(read.first === held.first)
            #expect(held.first?.objectID.isTemporaryID == false)
            held.first?.wins = 3
        }
        try chain.saveAll()
        let reader = stack.newContext()
        #expect(try reader.performAndWait { try reader.all(Team.self).map(\.wins) } == [3])
    }

    /// A parent save that fails keeps the parent usable: once the cause is fixed, the next save
    /// writes everything the child pushed.
    @Test(arguments: StoreKind.withPostgres)
    func aFailedParentSaveLosesNothingAndTheNextOneSucceeds(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let chain = ContextChain(stack, depth: 1)
        try chain.leaf.performAndWait {
            Player.named("Essien", in: chain.leaf).team = Team.named("Ghana", in: chain.leaf)
            try chain.leaf.save()
        }
        try chain.root.performAndWait {
            // An object of the root's own, missing a required value, makes the save fail.
            let invalid = Team(context: chain.root)
            invalid.teamName = "No zone"
            #expect(throws: ValidationError.self) { try chain.root.save() }
            #expect(chain.root.insertedObjects.count == 3)
            chain.root.delete(invalid)
            try chain.root.save()
        }
        let stored = try StoredGraph(stack)
        #expect(stored.teams == ["Ghana": ["coach": "", "players": "Essien"]])
        #expect(stored.players == ["Essien": ["team": "Ghana", "clubs": ""]])
    }
}

/// New fixture objects with their required values, named.
extension Team {
    @discardableResult
    static func named(_ name: String, in context: ManagedObjectContext) -> Team {
        let team = Team(context: context)
        team.teamName = name
        team.qualifyingZone = "CAF"
        return team
    }
}

extension Player {
    @discardableResult
    static func named(_ name: String, in context: ManagedObjectContext) -> Player {
        let player = Player(context: context)
        player.name = name
        return player
    }
}

extension Coach {
    static func named(_ name: String, in context: ManagedObjectContext) -> Coach {
        let coach = Coach(context: context)
        coach.name = name
        return coach
    }
}

extension Club {
    static func named(_ name: String, in context: ManagedObjectContext) -> Club {
        let club = Club(context: context)
        club.name = name
        return club
    }
}

/// A root context and `depth` child contexts below it, each the parent of the next.
struct ContextChain {
    let root: ManagedObjectContext
    /// The root first, the leaf last.
    let contexts: [ManagedObjectContext]
    var leaf: ManagedObjectContext { contexts[contexts.count - 1] }

    init(_ stack: TestStack, depth: Int) {
        root = stack.newContext()
        var contexts = [root]
        for _ in 0..<depth {
            let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = contexts[contexts.count - 1]
            contexts.append(child)
        }
        self.contexts = contexts
    }

    /// Runs `changes` in the leaf, then saves every context from the leaf up to the root.
    func edit(_ changes: (ManagedObjectContext) throws -> Void) throws {
        try leaf.performAndWait { try changes(leaf) }
        try saveAll()
    }

    /// Saves every context from the leaf up to the root.
    func saveAll() throws {
        for context in contexts.reversed() {
            try context.performAndWait { try context.save() }
        }
    }
}

/// The fixture graph as a fresh context reads it from the store: each object by name, with the
/// names of its relationship targets (to-manys sorted and joined by commas, "" for none).
struct StoredGraph {
    var teams: [String: [String: String]] = [:]
    var players: [String: [String: String]] = [:]
    var coaches: [String: String] = [:]
    var clubs: [String: String] = [:]

    init(_ stack: TestStack) throws {
        let reader = stack.newContext()
        self = try reader.performAndWait {
            var graph = StoredGraph(empty: ())
            for team in try reader.all(Team.self) {
                graph.teams[team.teamName] = ["coach": team.coach?.name ?? "", "players": Self.names(team.players.map(\.name))]
            }
            for player in try reader.all(Player.self) {
                graph.players[player.name] = ["team": player.team?.teamName ?? "", "clubs": Self.names(player.clubs.map(\.name))]
            }
            for coach in try reader.all(Coach.self) { graph.coaches[coach.name] = coach.team?.teamName ?? "" }
            for club in try reader.all(Club.self) { graph.clubs[club.name] = Self.names(club.players.map(\.name)) }
            return graph
        }
    }

    private init(empty: Void) {}

    private static func names(_ names: [String]) -> String { names.sorted().joined(separator: ",") }
}
