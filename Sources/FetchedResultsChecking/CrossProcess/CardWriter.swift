import Foundation
import OpenCoreData
#if Postgres
import OpenCoreDataPostgres
#endif

/// The other process of the cross-process fuzzer: it opens the fuzz store and commits what its
/// standard input asks, one command per line, answering each on standard output.
///
/// - `changes SEED COUNT`: COUNT random changes to cards (inserts, deletes, sort-key,
///   section-key and predicate changes, as the fuzzer makes in process), saved by a context;
/// - `batch SEED`: one batch update, delete or insert request;
/// - `stall SEED COUNT`: gives every card a new rank and inserts COUNT cards, and says `saving`
///   just before saving, so that the fuzzer can kill it in the middle of a large transaction
///   (one that does not grow the store much, so that long runs stay fast);
/// - `quit`.
///
/// It answers `ready` once the store is open, `committed GENERATION` after each command (the
/// store's generation after it), and `failed MESSAGE` when a command fails.
public enum CardWriter {
    /// Runs the writer on the store at `storeLocation` (an SQLite file's path, or with the
    /// `Postgres` trait a `postgres://` URL) until standard input ends or says `quit`; returns the
    /// exit status.
    public static func run(storeLocation: String) -> Int32 {
        do {
            let container = PersistentContainer(name: "Cards", managedObjectModel: try ManagedObjectModel(managedObjectClasses: [Card.self]))
            container.persistentStoreDescriptions = [try description(of: storeLocation)]
            try container.loadPersistentStores()
            say("ready")
            while let line = readLine() {
                let words = line.split(separator: " ").map(String.init)
                guard let verb = words.first, verb != "quit" else { return 0 }
                do {
                    try perform(verb, numbers: words.dropFirst().compactMap { UInt64($0) }, in: container)
                    say("committed \(try generation(of: container))")
                } catch {
                    say("failed \(error)")
                }
            }
            return 0
        } catch {
            say("failed \(error)")
            return 1
        }
    }

    private static func perform(_ verb: String, numbers: [UInt64], in container: PersistentContainer) throws {
        let seed = numbers.first ?? 0
        let count = Int(numbers.dropFirst().first ?? 1)
        let context = container.newBackgroundContext()
        context.name = "writer"
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.performAndWait {
            var changes = CardChanges(seed: seed)
            switch verb {
            case "changes":
                var cards = try context.fetch(Card.fetchRequest())
                for _ in 0..<count { changes.change(in: context, cards: &cards) }
                try context.save()
            case "batch":
                _ = try context.execute(randomBatchRequest(&changes.random))
            case "stall":
                for card in try context.fetch(Card.fetchRequest()) { card.rank = Int32(changes.random.next() % 50) }
                for _ in 0..<count { changes.insertCard(in: context) }
                say("saving")
                try context.save()
            default:
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "unknown command '\(verb)'"])
            }
        }
    }

    /// A batch update of a sort key, section key or flag, a batch delete, or a batch insert.
    private static func randomBatchRequest(_ random: inout SplitMix64) throws -> PersistentStoreRequest {
        let rank = Int(random.next() % 50)
        switch random.next() % 5 {
        case 0:
            let request = BatchUpdateRequest(entityName: "Card")
            request.predicate = try FetchPredicate(format: "rank >= %d AND rank < %d", rank, rank + 5)
            request.propertiesToUpdate = ["rank": BatchUpdateExpression(key: "rank", .add, 7)]
            return request
        case 1:
            let request = BatchUpdateRequest(entityName: "Card")
            request.predicate = try FetchPredicate(format: "rank < %d", rank)
            request.propertiesToUpdate = ["visible": random.next() % 2 == 0, "deck": random.next() % 2 == 0 ? "B" : NSNull()]
            return request
        case 2:
            let fetch = Card.fetchRequest()
            fetch.predicate = try FetchPredicate(format: "rank == %d", rank)
            return BatchDeleteRequest(fetchRequest: fetch)
        default:
            let decks = ["A", "B", "C", "D"]
            let objects: [[String: Any]] = (0..<Int(random.next() % 4) + 1).map { number in
                ["deck": decks[Int(random.next() % 4)], "rank": Int(random.next() % 50), "title": "batch \(number)",
                 "visible": random.next() % 3 != 0]
            }
            return BatchInsertRequest(entityName: "Card", objects: objects)
        }
    }

    private static func description(of location: String) throws -> PersistentStoreDescription {
        #if Postgres
        if location.hasPrefix("postgres") { return try PersistentStoreDescription(postgres: location) }
        #endif
        return PersistentStoreDescription(url: URL(fileURLWithPath: location))
    }

    private static func generation(of container: PersistentContainer) throws -> Int64 {
        try CardWriterProcess.generation(of: container.persistentStoreCoordinator)
    }

    private static func say(_ line: String) {
        print(line)
        fflush(nil)
    }
}
