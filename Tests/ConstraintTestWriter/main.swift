// A writer for the constraint tests: several of them insert objects with keys from a small pool
// into one store (an SQLite file, or with the `Postgres` trait a PostgreSQL URL) at the same time,
// each key under a uniqueness constraint, and resolve the conflicts with a merge policy. The test
// checks afterwards that every key has one row.
//
// Usage: ConstraintTestWriter <store path or postgres:// URL> <writer name> <keys> <saves> <seed> <policy>
//   policy: objectTrump, storeTrump, overwrite or rollback
//
// Each save inserts one to three tokens with random keys (two of one save may share a key), drawn
// as the test draws them. It prints "ready" once the store is open and "done <saves>" at the end;
// any error ends it with status 1 and a message on standard error.
//
// The entity must stay identical to `Token` in Tests/OpenCoreDataTests/Constraints/
// ConstraintProcessTests.swift: both open the store with their own copy of the model.

import Foundation
import OpenCoreData
#if Postgres
import OpenCoreDataPostgres
#endif

final class Token: ManagedObject {
    @Managed(unique: true) var key: String
    @Managed var writer: String = ""
    @Managed var count: Int64 = 0
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ConstraintTestWriter: \(message)\n".utf8))
    exit(1)
}

func report(_ line: String) {
    print(line)
    fflush(nil)
}

/// SplitMix64, as FetchedResultsChecking's: the test draws the same keys from the same seed.
struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let keys = Int(arguments[3]), let saves = Int(arguments[4]), let seed = UInt64(arguments[5]),
      keys > 0, saves > 0 else {
    fail("usage: ConstraintTestWriter <store path> <writer name> <keys> <saves> <seed> <policy>")
}
let writer = arguments[2]
let policies: [String: MergePolicy] = [
    "objectTrump": .mergeByPropertyObjectTrump, "storeTrump": .mergeByPropertyStoreTrump,
    "overwrite": .overwrite, "rollback": .rollback,
]
guard let policy = policies[arguments[6]] else { fail("unknown policy \(arguments[6])") }

let container: PersistentContainer
do {
    container = PersistentContainer(name: "ConstraintTest", managedObjectModel: try ManagedObjectModel(managedObjectClasses: [Token.self]))
    #if Postgres
    let description = arguments[1].hasPrefix("postgres")
        ? try PersistentStoreDescription(postgres: arguments[1]) : PersistentStoreDescription(url: URL(fileURLWithPath: arguments[1]))
    #else
    let description = PersistentStoreDescription(url: URL(fileURLWithPath: arguments[1]))
    #endif
    description.timeout = 30
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
} catch {
    fail("cannot open \(arguments[1]): \(error)")
}

let context = container.newBackgroundContext()
context.mergePolicy = policy
report("ready")
var random = Random(state: seed)
context.performAndWait {
    for save in 0..<saves {
        for _ in 0...random.next(3) {
            let token = Token(context: context)
            token.key = "k\(random.next(keys))"
            token.writer = writer
            token.count = Int64(save)
        }
        do {
            try context.save()
        } catch {
            fail("save \(save): \(error)")
        }
        // Forget what was read, so that the next save meets the other writers' rows.
        context.reset()
    }
}
report("done \(saves)")
