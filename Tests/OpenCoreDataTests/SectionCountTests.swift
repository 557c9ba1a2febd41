import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// A note with a transient attribute, whose conditions the store leaves to memory.
final class SectionNote: ManagedObject {
    @Managed var title: String
    @Managed(transient: true) var scratch: String?
}

/// The store's grouped counts of a section key's values.
@Suite struct SectionCountTests {
    /// The fetch and section key a request gives, and what the store counts for it.
    private func sectionCounts<T>(_ context: ManagedObjectContext, _ request: FetchRequest<T>) throws
        -> (counts: [SectionCount]?, plan: StoreFetch, key: ResolvedSortKey) {
        let plan = try context.storeFetch(for: request)
        let key = try #require(plan.sortKeys.first)
        let coordinator = try #require(context.persistentStoreCoordinator)
        return (try coordinator.sectionCounts(plan, groupedBy: key), plan, key)
    }

    /// The key's values of the rows the fetch returns, in its order.
    private func fetchedValues(_ context: ManagedObjectContext, _ plan: StoreFetch, _ key: ResolvedSortKey) throws -> [PropertyValue] {
        let coordinator = try #require(context.persistentStoreCoordinator)
        return try coordinator.fetch(plan).rows.map { $0.value(at: key.attribute.slot) }
    }

    /// Runs of equal consecutive values.
    private func runs(_ values: [PropertyValue]) -> [SectionCount] {
        var result: [SectionCount] = []
        for value in values {
            if let last = result.indices.last, result[last].value == value {
                result[last].count += 1
            } else {
                result.append(SectionCount(value: value, count: 1))
            }
        }
        return result
    }

    private func teamRequest(_ predicate: String? = nil, _ sort: FetchSortDescriptor) throws -> FetchRequest<Team> {
        let request = Team.fetchRequest()
        request.predicate = try predicate.map { try FetchPredicate(format: $0) }
        request.sortDescriptors = [sort, FetchSortDescriptor(key: "teamName")]
        return request
    }

    private func insertTeams(_ context: ManagedObjectContext, _ teams: [(String, String, String?, Int16)]) throws {
        for (name, zone, image, wins) in teams {
            let team = Team(context: context)
            team.teamName = name
            team.qualifyingZone = zone
            team.imageName = image
            team.wins = wins
        }
        try context.save()
    }

    private static let teams: [(String, String, String?, Int16)] = [
        ("Brazil", "CONMEBOL", "br.png", 5), ("argentina", "CONMEBOL", nil, 3), ("France", "UEFA", "fr.png", 5),
        ("germany", "UEFA", nil, 4), ("Spain", "UEFA", "es.png", 1), ("Japan", "AFC", nil, 2), ("Ghana", "CAF", "gh.png", 3),
    ]

    @Test(arguments: [
        (nil, "wins", true, FetchSortDescriptor.Comparison.binary),
        ("qualifyingZone == 'UEFA'", "wins", false, .binary),
        ("wins >= 3", "qualifyingZone", true, .binary),
        (nil, "teamName", true, .caseInsensitive),
        (nil, "teamName", false, .caseInsensitive),
        ("wins > 1", "imageName", true, .binary),
        (nil, "imageName", false, .binary),
    ])
    func countsMatchTheFetch(predicate: String?, key: String, ascending: Bool, comparison: FetchSortDescriptor.Comparison) throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            try insertTeams(context, Self.teams)
            let request = try teamRequest(predicate, FetchSortDescriptor(key: key, ascending: ascending, comparison: comparison))
            let (counts, plan, sortKey) = try sectionCounts(context, request)
            let values = try fetchedValues(context, plan, sortKey)
            let groups = try #require(counts)
            #expect(groups == runs(values))
            for group in groups {
                #expect(group.count == values.filter { $0 == group.value }.count)
            }
            #expect(groups.reduce(0) { $0 + $1.count } == (try context.count(for: request)))
        }
    }

    @Test func nilIsAGroupWhereTheKeySortsIt() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            try insertTeams(context, Self.teams)
            let ascending = try #require(try sectionCounts(context, try teamRequest(nil, FetchSortDescriptor(key: "imageName"))).counts)
            #expect(ascending.first == SectionCount(value: .null, count: 3))
            #expect(ascending.dropFirst().map(\.value) == ["br.png", "es.png", "fr.png", "gh.png"].map(PropertyValue.string))
            let descending = try #require(try sectionCounts(context, try teamRequest(nil, FetchSortDescriptor(key: "imageName", ascending: false))).counts)
            #expect(descending.last == SectionCount(value: .null, count: 3))
        }
    }

    @Test func caseInsensitiveOrderFoldsCase() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            try insertTeams(context, Self.teams)
            let request = try teamRequest(nil, FetchSortDescriptor(key: "teamName", comparison: .caseInsensitive))
            let counts = try #require(try sectionCounts(context, request).counts)
            #expect(counts.map(\.value) == ["argentina", "Brazil", "France", "germany", "Ghana", "Japan", "Spain"].map(PropertyValue.string))
        }
    }

    /// Values that sort equal but differ are separate groups, in the order of their first rows.
    @Test func caseVariantsAreSeparateGroups() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            for name in ["beta", "Alpha", "alpha", "Alpha"] {
                try insertTeams(context, [(name, "UEFA", nil, 0)])
            }
            let request = try teamRequest(nil, FetchSortDescriptor(key: "teamName", comparison: .caseInsensitive))
            let counts = try #require(try sectionCounts(context, request).counts)
            #expect(counts == [SectionCount(value: .string("Alpha"), count: 2), SectionCount(value: .string("alpha"), count: 1), SectionCount(value: .string("beta"), count: 1)])
        }
    }

    @Test func otherAttributeTypesGroupByValue() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            for (decimal, bool) in [(Decimal(string: "10")!, true), (Decimal(string: "1.5")!, false), (Decimal(string: "2")!, true),
                                    (Decimal(string: "1.50")!, true), (Decimal(string: "-3")!, false)] {
                let sample = Sample(context: context)
                sample.decimal = decimal
                sample.bool = bool
            }
            try context.save()
            let byDecimal = Sample.fetchRequest()
            byDecimal.sortDescriptors = [FetchSortDescriptor(key: "decimal")]
            #expect(try sectionCounts(context, byDecimal).counts == [
                SectionCount(value: .decimal(-3), count: 1), SectionCount(value: .decimal(Decimal(string: "1.5")!), count: 2),
                SectionCount(value: .decimal(2), count: 1), SectionCount(value: .decimal(10), count: 1),
            ])
            let byBool = Sample.fetchRequest()
            byBool.sortDescriptors = [FetchSortDescriptor(key: "bool", ascending: false)]
            #expect(try sectionCounts(context, byBool).counts == [
                SectionCount(value: .boolean(true), count: 3), SectionCount(value: .boolean(false), count: 2),
            ])
        }
    }

    @Test func subentitiesAreIncludedOrNotAsTheFetchSays() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            for name in ["Ann", "Bob"] { Person(context: context).name = name }
            for name in ["Ann", "Cy"] { Employee(context: context).name = name }
            try context.save()
            let request = Person.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            #expect(try sectionCounts(context, request).counts?.map(\.count) == [2, 1, 1])
            request.includesSubentities = false
            #expect(try sectionCounts(context, request).counts == [SectionCount(value: .string("Ann"), count: 1), SectionCount(value: .string("Bob"), count: 1)])
        }
    }

    @Test func windowsAndRelationshipKeysAreLeftToTheCaller() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            try insertTeams(context, Self.teams)
            let limited = try teamRequest(nil, FetchSortDescriptor(key: "wins"))
            limited.fetchLimit = 3
            #expect(try sectionCounts(context, limited).counts == nil)
            let offset = try teamRequest(nil, FetchSortDescriptor(key: "wins"))
            offset.fetchOffset = 1
            #expect(try sectionCounts(context, offset).counts == nil)
            let players = Player.fetchRequest()
            players.sortDescriptors = [FetchSortDescriptor(key: "team.teamName")]
            #expect(try sectionCounts(context, players).counts == nil)
        }
    }

    @Test func aPredicateTheStoreCannotRunIsLeftToTheCaller() throws {
        let model = try ManagedObjectModel(managedObjectClasses: [SectionNote.self])
        let stack = try TestStack(.sqlite, model: model)
        let context = stack.newContext()
        try context.performAndWait {
            SectionNote(context: context).title = "Note"
            try context.save()
            let request = SectionNote.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            #expect(try sectionCounts(context, request).counts == [SectionCount(value: .string("Note"), count: 1)])
            request.predicate = try FetchPredicate(format: "scratch == nil")
            #expect(try sectionCounts(context, request).counts == nil)
        }
    }

    @Test func theInMemoryStoreLeavesItToTheCaller() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        try context.performAndWait {
            try insertTeams(context, Self.teams)
            #expect(try sectionCounts(context, try teamRequest(nil, FetchSortDescriptor(key: "wins"))).counts == nil)
        }
    }

    /// Over random teams, the groups in order are the runs of the key's values in the fetch.
    @Test(arguments: [UInt64(0x5EC7_10A5), 0xC0FF_EE00_1234])
    func groupsAreTheRunsOfTheOrderedFetch(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let zones = ["AFC", "CAF", "CONCACAF", "CONMEBOL", "OFC", "UEFA"]
        let images = ["a.png", "A.png", "b.png", "img2.png", "img10.png"]
        let teams = (0..<400).map { _ -> (String, String, String?, Int16) in
            ("Team \(Int.random(in: 0..<60, using: &random))", zones.randomElement(using: &random) ?? "",
             Int.random(in: 0..<10, using: &random) < 3 ? nil : images.randomElement(using: &random),
             Int16.random(in: 0..<8, using: &random))
        }
        let predicates: [String?] = [nil, "wins >= 3", "imageName != nil", "qualifyingZone IN {'UEFA', 'CAF'} OR wins == 0",
                                     "NOT (teamName BEGINSWITH 'Team 1')"]
        let sorts: [FetchSortDescriptor] = ["teamName", "qualifyingZone", "imageName", "wins"].flatMap { key in
            [FetchSortDescriptor(key: key), FetchSortDescriptor(key: key, ascending: false)]
        } + [FetchSortDescriptor(key: "teamName", comparison: .caseInsensitive),
             FetchSortDescriptor(key: "teamName", ascending: false, comparison: .localizedStandard),
             FetchSortDescriptor(key: "qualifyingZone", comparison: .caseInsensitive)]
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            try insertTeams(context, teams)
            for predicate in predicates {
                for sort in sorts {
                    let (counts, plan, key) = try sectionCounts(context, try teamRequest(predicate, sort))
                    let values = try fetchedValues(context, plan, key)
                    #expect(try #require(counts) == runs(values), "\(predicate ?? "all") by \(sort.key) \(sort.ascending) \(sort.comparison)")
                }
            }
        }
    }
}
