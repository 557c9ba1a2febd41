import FetchedResultsChecking
import Foundation
import OpenCoreData

/// `ocd-bench --ingest-writer STORE` (not for people): a writer process of `--ingest`. It
/// opens the store (a SQLite file or a `postgres://` URL), says `ready`, and on `run W N SECONDS RATE BATCH START LOG`
/// saves, until SECONDS after START (the machine's monotonic clock), batches of BATCH of its
/// own teams (those whose position is W modulo N, so that writers never conflict), paced to
/// RATE row changes a second. Each changed team gets new wins, and as its creation date the
/// save's stamp (W × 1,000,000 + the save's number), by which the reading process tells the
/// saves apart. It writes `STAMP BEGIN END` for each save to LOG and answers `done SAVES ROWS`.
enum IngestWriter {
    static func run(location: String) throws {
        let container = try DeliveryWriter.openContainer(location: location)
        let context = container.newBackgroundContext()
        // Every team loaded once and held (the context is never reset), so that a save's
        // changes cost no read: the writer measures committing, not faulting. Used on the
        // context's queue only.
        let teams = try context.performAndWait { () throws -> [Team] in
            let request = Team.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            request.returnsObjectsAsFaults = false
            return try context.fetch(request)
        }
        DeliveryWriter.say("ready")
        guard let line = readLine() else { return }
        let words = line.split(separator: " ").map(String.init)
        guard words.count == 8, words[0] == "run", let writer = Int(words[1]), let writers = Int(words[2]),
              let seconds = Double(words[3]), let rate = Double(words[4]), let batch = Int(words[5]),
              let startAt = UInt64(words[6]) else {
            throw BenchError(description: "the ingest writer cannot read '\(line)'")
        }
        let mine = stride(from: writer, to: teams.count, by: writers).map { teams[$0] }
        var generator = SplitMix64(seed: UInt64(writer + 1))
        let end = startAt + UInt64(seconds * 1e9)
        let interval = Double(batch) / rate * 1e9
        var log = ""
        var saves = 0
        while true {
            // Paced: save number k starts no earlier than START + k × BATCH / RATE.
            let due = startAt + UInt64(Double(saves) * interval)
            if due >= end { break }
            let current = now()
            if due > current { usleep(UInt32((due - current) / 1000)) }
            if now() >= end { break }
            let stamp = writer * 1_000_000 + saves
            var chosen = Set<Int>()
            while chosen.count < batch { chosen.insert(Int(generator.next() % UInt64(mine.count))) }
            let steps = chosen.map { _ in Int32(1 + generator.next() % 999) }
            let begin = now()
            try context.performAndWait {
                for (position, step) in zip(chosen, steps) {
                    let team = mine[position]
                    team.wins = (team.wins + step) % 1000
                    team.created = Date(timeIntervalSince1970: Double(stamp))
                }
                try context.save()
            }
            log += "\(stamp) \(begin) \(now())\n"
            saves += 1
        }
        try log.write(toFile: words[7], atomically: true, encoding: .utf8)
        DeliveryWriter.say("done \(saves) \(saves * batch)")
        _ = readLine()
    }
}
