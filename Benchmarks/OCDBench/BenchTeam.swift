import Foundation
import OpenCoreData

/// The World Cup-shaped entity the benchmark measures: sorted by zone, wins descending, name;
/// sectioned by zone; indexed on the sort keys.
final class Team: ManagedObject {
    @Managed var name: String
    @Managed var zone: String
    @Managed var wins: Int32 = 0
    @Managed var created: Date

    override class var fetchIndexes: [FetchIndexDescription] {
        [FetchIndexDescription(name: "byZoneWinsName", elements: [
            FetchIndexElementDescription(propertyName: "zone"),
            FetchIndexElementDescription(propertyName: "wins", ascending: false),
            FetchIndexElementDescription(propertyName: "name"),
        ])]
    }

    static let zones = (1...20).map { String(format: "Zone %02d", $0) }

    static var sortDescriptors: [FetchSortDescriptor] {
        [FetchSortDescriptor(key: "zone"), FetchSortDescriptor(key: "wins", ascending: false), FetchSortDescriptor(key: "name")]
    }

    /// The scoreboard request: sorted, in batches of 20.
    static func scoreboardRequest() -> FetchRequest<Team> {
        let request = Team.fetchRequest()
        request.sortDescriptors = sortDescriptors
        request.fetchBatchSize = 20
        return request
    }

    /// The SQL the raw baselines run: the same order, with the same tie-break by primary key.
    static let orderedKeysSQL = #"SELECT "_pk" FROM "Team" ORDER BY "zone", "wins" DESC, "name", "_pk""#
    static let orderedRowsSQL = #"SELECT "_pk", "zone", "wins", "name" FROM "Team" ORDER BY "zone", "wins" DESC, "name", "_pk""#
    static let sectionCountsSQL = #"SELECT "zone", COUNT(*) FROM "Team" GROUP BY "zone" ORDER BY "zone""#
}
