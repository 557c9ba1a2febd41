public import OpenCoreData

/// A country's team: the World Cup scoreboard's one entity.
///
/// ```swift
/// let team = Team(context: context)
/// team.teamName = "Wenderland"
/// team.qualifyingZone = "Oceania"
/// team.wins += 1
/// try context.save()
/// ```
public final class Team: ManagedObject {
    /// The team's name, unique on the scoreboard (compared without case).
    @Managed public var teamName: String
    /// The qualifying zone, which names the team's section.
    @Managed(indexed: true) public var qualifyingZone: String
    /// Wins so far; a click on the page adds one.
    @Managed public var wins: Int16 = 0

    /// The scoreboard's order, so sections and rankings come straight from the index.
    override public class var fetchIndexes: [FetchIndexDescription] {
        [FetchIndexDescription(name: "byZoneWinsName", elements: [
            FetchIndexElementDescription(propertyName: "qualifyingZone"),
            FetchIndexElementDescription(propertyName: "wins", ascending: false),
            FetchIndexElementDescription(propertyName: "teamName"),
        ])]
    }

    /// The scoreboard's request: sections by zone, most wins first, then by name.
    public static func scoreboardRequest() -> FetchRequest<Team> {
        let request = Team.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"),
                                   FetchSortDescriptor(key: "wins", ascending: false),
                                   FetchSortDescriptor(key: "teamName")]
        request.fetchBatchSize = 20
        return request
    }
}
