// The World Cup scoreboard (the fetched results controller's sample app), on the SQLite store:
// teams in sections by qualifying zone, ranked by wins. Each run taps a few teams (a tap adds a
// win and saves) and, the first time, adds a team from a new zone. Run it twice: the second run
// reads its sections from the "worldCup" cache instead of fetching. `--reset` starts over.
import Foundation
import OpenCoreData

let container = try PersistentContainer(name: "WorldCup", managedObjectClasses: [Team.self])
let storeURL = PersistentContainer.defaultDirectoryURL().appendingPathComponent("WorldCup/WorldCup.sqlite")
if CommandLine.arguments.contains("--reset") {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storeURL.path + suffix) }
    FetchedResultsController<Team>.deleteCache(withName: "worldCup")
}
try container.loadPersistentStores()
let context = container.newBackgroundContext()

try context.performAndWait {
    if try context.count(for: Team.fetchRequest()) == 0 {
        for (zone, names) in Team.seeds {
            for name in names {
                let team = Team(context: context)
                team.teamName = name
                team.qualifyingZone = zone
            }
        }
        try context.save()
    }

    let request = Team.fetchRequest()
    request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"),
                               FetchSortDescriptor(key: "wins", ascending: false),
                               FetchSortDescriptor(key: "teamName")]
    request.fetchBatchSize = 20
    let scoreboard = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: "qualifyingZone", cacheName: "worldCup")
    let table = ScoreboardTable()
    scoreboard.delegate = table
    try scoreboard.performFetch()
    print("World Cup scoreboard in \(storeURL.path): \(scoreboard.fetchedObjects?.count ?? 0) teams")
    ScoreboardTable.show(scoreboard)

    for name in ["Japan", "Canada", "Japan"] {
        guard let team = scoreboard.fetchedObjects?.first(where: { $0.teamName == name }) else { continue }
        print("tap \(name)")
        team.wins += 1
        try context.save()
    }
    if scoreboard.fetchedObjects?.contains(where: { $0.teamName == "Wenderland" }) == false {
        print("add Wenderland, in a new zone")
        let team = Team(context: context)
        team.teamName = "Wenderland"
        team.qualifyingZone = "Oceania"
        team.imageName = "wenderland-flag"
        try context.save()
    }
    print("Scoreboard now:")
    ScoreboardTable.show(scoreboard)
}
