import FetchedResultsChecking
import Foundation
import OpenCoreData

/// `ocd-bench --delivery-writer STORE` (not for people): the other process of `--other-process`.
/// It opens the data set's store (a file, or with the `Postgres` trait a `postgres://` URL), says `ready`, and for each `change SEED` line gives one team a
/// new number of wins and saves, as scenario 3's background context does, answering
/// `committed T` with T the monotonic time at which it called `save()` (the clock is the
/// machine's, shared by both processes).
enum DeliveryWriter {
    static func run(storePath: String) throws {
        let container = try openContainer(location: storePath)
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            let request = FetchRequest<ManagedObjectID>(entityName: "Team")
            request.resultType = .managedObjectIDResultType
            return try context.fetch(request)
        }
        say("ready")
        while let line = readLine() {
            let words = line.split(separator: " ")
            guard words.first == "change", let seed = words.dropFirst().first.flatMap({ UInt64($0) }) else { return }
            var generator = SplitMix64(seed: seed)
            let chosen = ChangeScenarios.choose(1, from: ids, using: &generator)
            let start = try ChangeScenarios.changeAndSave(chosen, in: context, using: &generator)
            context.performAndWait { context.reset() }
            say("committed \(start)")
        }
    }

    /// A container on the store at `location`: a SQLite file's path, or a PostgreSQL store's URL.
    static func openContainer(location: String) throws -> PersistentContainer {
        #if Postgres
        if PostgresDataSet.isURL(location) { return try PostgresDataSet.openContainer(storeURL: location) }
        #endif
        let dataSet = DataSet(rows: 0, directory: URL(fileURLWithPath: location).deletingLastPathComponent())
        return try dataSet.openContainer(at: URL(fileURLWithPath: location))
    }

    static func say(_ line: String) {
        print(line)
        fflush(nil)
    }
}
