import OpenCoreData

/// A country's team: the World Cup scoreboard's one entity.
final class Team: ManagedObject {
    @Managed var teamName: String
    @Managed(indexed: true) var qualifyingZone: String
    @Managed var imageName: String?
    @Managed var wins: Int16 = 0

    /// The scoreboard's order, so sections and rankings come straight from the index.
    override class var fetchIndexes: [FetchIndexDescription] {
        [FetchIndexDescription(name: "byZoneWinsName", elements: [
            FetchIndexElementDescription(propertyName: "qualifyingZone"),
            FetchIndexElementDescription(propertyName: "wins", ascending: false),
            FetchIndexElementDescription(propertyName: "teamName"),
        ])]
    }

    /// The teams a new scoreboard starts with, by zone.
    static let seeds: [(zone: String, names: [String])] = [
        ("Africa", ["Cameroon", "Ghana", "Morocco", "Nigeria", "Senegal"]),
        ("Asia", ["Australia", "Iran", "Japan", "Korea Republic", "Saudi Arabia"]),
        ("Europe", ["Croatia", "England", "France", "Germany", "Netherlands", "Spain"]),
        ("North, Central America & Caribbean", ["Canada", "Costa Rica", "Mexico", "USA"]),
        ("South America", ["Argentina", "Brazil", "Ecuador", "Uruguay"]),
    ]
}
