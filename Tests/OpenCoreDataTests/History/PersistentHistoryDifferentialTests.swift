import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// The SQLite store's history (runs of new objects in one row, changes found by ranges of IDs,
/// tombstones in a table of their own) against the in-memory store's, which keeps each change as
/// the save made it: the same random saves must give the same history in both, and name exactly
/// the objects each save inserted.
@Suite struct PersistentHistoryDifferentialTests {
    static let sequences = 12
    static let savesPerSequence = 12

    @Test(arguments: 0..<sequences)
    func sqliteHistoryMatchesTheInMemoryHistory(sequence: Int) throws {
        let seed = 0x4849_5354 &+ UInt64(sequence)
        let sqlite = try RandomHistoryWriter(kind: .sqlite, seed: seed)
        let memory = try RandomHistoryWriter(kind: .inMemory, seed: seed)
        for _ in 0..<Self.savesPerSequence {
            let written = try sqlite.saveRandomChanges()
            #expect(try memory.saveRandomChanges() == written)
        }
        let sqliteHistory = try sqlite.stack.transactions()
        let memoryHistory = try memory.stack.transactions()
        #expect(sqliteHistory.count == Self.savesPerSequence)
        #expect(sqliteHistory.map(Self.describe) == memoryHistory.map(Self.describe), "seed \(seed)")
        // Each transaction names exactly the objects its save inserted.
        for (transaction, inserted) in zip(sqliteHistory, sqlite.insertedBySave) {
            let names = (transaction.changes ?? []).filter { $0.changeType == .insert }.map(RandomHistoryWriter.name).sorted()
            #expect(names == inserted, "seed \(seed), transaction \(transaction.transactionNumber)")
        }
    }

    /// A transaction without its store's identity, for comparing two stores.
    private static func describe(_ transaction: PersistentHistoryTransaction) -> [String] {
        ["\(transaction.transactionNumber) \(transaction.author ?? "-") \(transaction.contextName ?? "-")"]
            + (transaction.changes ?? []).map { change in
                let tombstone = (change.tombstone ?? [:]).map { "\($0.key)=\($0.value)" }.sorted()
                let properties = change.updatedProperties?.map(\.name).sorted() ?? []
                return "\(change.changeID) \(change.changeType) \(RandomHistoryWriter.name(change)) \(properties) \(tombstone)"
            }
    }
}

/// Makes random saves (inserts of entities of two hierarchies and a subentity, interleaved;
/// attribute and relationship updates; deletions with cascades) driven by a seed, so that two
/// stores get the same saves.
final class RandomHistoryWriter {
    let stack: HistoryStack
    private var random: SplitMix64
    private let context: ManagedObjectContext
    /// The objects of each save's inserts, as `Entity/key`.
    private(set) var insertedBySave: [[String]] = []

    init(kind: StoreKind, seed: UInt64) throws {
        let model = try Fixtures.model()
        model.entitiesByName["Team"]?.attributesByName["teamName"]?.preservesValueInHistoryOnDeletion = true
        model.entitiesByName["Person"]?.attributesByName["name"]?.preservesValueInHistoryOnDeletion = true
        model.entitiesByName["Player"]?.attributesByName["number"]?.preservesValueInHistoryOnDeletion = true
        stack = try HistoryStack(kind, model: model)
        random = SplitMix64(seed: seed)
        context = stack.newContext()
    }

    static func name(_ change: PersistentHistoryChange) -> String {
        "\(change.changedObjectID.entity.name ?? "?")/\(change.changedObjectID.uriRepresentation().lastPathComponent)"
    }

    private func pick(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }

    /// Makes one save of random changes; returns a description of what it did.
    func saveRandomChanges() throws -> [String] {
        try context.performAndWait {
            var done: [String] = []
            var inserted: [ManagedObject] = []
            context.transactionAuthor = ["app", "importer", nil][pick(3)]
            context.name = ["main", nil][pick(2)]
            for _ in 0..<(1 + pick(12)) {
                let teams = try context.all(Team.self, sortedBy: "teamName")
                let players = try context.all(Player.self, sortedBy: "name")
                let people = try context.all(Person.self, sortedBy: "name")
                switch pick(9) {
                case 0, 1:
                    let team = Team(context: context)
                    team.teamName = "T\(random.next() % 1000)"
                    team.qualifyingZone = ["UEFA", "CAF"][pick(2)]
                    inserted.append(team)
                    done.append("insert team")
                case 2:
                    let player = Player(context: context)
                    player.name = "P\(random.next() % 1000)"
                    player.number = Int32(pick(99))
                    if !teams.isEmpty { player.team = teams[pick(teams.count)] }
                    inserted.append(player)
                    done.append("insert player")
                case 3:
                    let person: Person = pick(2) == 0 ? Employee(context: context) : Person(context: context)
                    person.name = "E\(random.next() % 1000)"
                    inserted.append(person)
                    done.append("insert person")
                case 4 where !teams.isEmpty:
                    let team = teams[pick(teams.count)]
                    team.wins = Int16(pick(50))
                    if pick(2) == 0 { team.imageName = "image\(pick(9))" }
                    done.append("update team")
                case 5 where !players.isEmpty && !teams.isEmpty:
                    players[pick(players.count)].team = teams[pick(teams.count)]
                    done.append("move player")
                case 6 where !people.isEmpty:
                    let person = people[pick(people.count)]
                    person.nickname = "N\(pick(9))"
                    if let employee = person as? Employee { employee.salary = Double(pick(100)) }
                    done.append("update person")
                case 7 where !teams.isEmpty:
                    context.delete(teams[pick(teams.count)])
                    done.append("delete team")
                case 8 where !players.isEmpty || !people.isEmpty:
                    let objects: [ManagedObject] = players + people
                    context.delete(objects[pick(objects.count)])
                    done.append("delete other")
                default:
                    done.append("nothing")
                }
            }
            // A save must change something to be a transaction.
            let team = Team(context: context)
            team.teamName = "Every save"
            team.qualifyingZone = "AFC"
            inserted.append(team)
            try context.save()
            insertedBySave.append(inserted.filter { !$0.isDeleted && $0.managedObjectContext != nil }
                .map { "\($0.entity.name ?? "?")/\($0.objectID.uriRepresentation().lastPathComponent)" }
                .sorted())
            context.reset()
            return done
        }
    }
}
