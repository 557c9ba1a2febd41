import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Grouped dictionary fetches (`propertiesToGroupBy`, `ExpressionDescription`s, `havingPredicate`),
/// checked against the same groups computed here from the values saved.
@Suite struct AggregateFetchTests {
    final class Fixture: ManagedObject {
        @Managed var zone: String?
        @Managed var goals: Int16 = 0
        @Managed var rating: Double?
        @Managed var fee: Decimal?
        @Managed var played: Date?
        @Managed var won: Bool = false
        @Managed var venue: Venue?
    }

    final class Venue: ManagedObject {
        @Managed var city: String
        @Managed(inverse: "venue") var fixtures: Set<Fixture>
    }

    struct Row {
        var zone: String?
        var goals: Int16
        var rating: Double?
        var fee: Decimal?
        var played: Date?
        var won: Bool
        var city: String
    }

    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: [Fixture.self, Venue.self])
    }

    /// Rows with nils and repeated values; ratings and fees add up exactly in any order.
    private static func rows(seed: UInt64, count: Int) -> [Row] {
        var generator = SplitMix64(seed: seed)
        let zones: [String?] = ["UEFA", "CONMEBOL", "AFC", nil]
        let cities = ["Lyon", "Porto", "Quito"]
        return (0..<count).map { _ in
            Row(zone: zones.randomElement(using: &generator) ?? nil,
                goals: Int16.random(in: 0...7, using: &generator),
                rating: Bool.random(using: &generator) ? Double(Int.random(in: 0...40, using: &generator)) / 4 : nil,
                fee: Bool.random(using: &generator) ? Decimal(Int.random(in: 1...999, using: &generator)) / 100 : nil,
                played: Bool.random(using: &generator) ? Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...1000, using: &generator)) * 86400) : nil,
                won: Bool.random(using: &generator),
                city: cities.randomElement(using: &generator) ?? "Lyon")
        }
    }

    private static func seed(_ rows: [Row], into stack: TestStack) throws {
        let context = stack.newContext()
        try context.performAndWait {
            var venues: [String: Venue] = [:]
            for row in rows {
                let fixture = Fixture(context: context)
                fixture.zone = row.zone
                fixture.goals = row.goals
                fixture.rating = row.rating
                fixture.fee = row.fee
                fixture.played = row.played
                fixture.won = row.won
                fixture.venue = venues[row.city] ?? {
                    let venue = Venue(context: context)
                    venue.city = row.city
                    venues[row.city] = venue
                    return venue
                }()
            }
            try context.save()
        }
    }

    private static func function(_ name: String, _ function: String, _ key: String, type: AttributeType? = nil) -> ExpressionDescription {
        let description = ExpressionDescription()
        description.name = name
        description.expression = FetchExpression(forFunction: function, arguments: [FetchExpression(forKeyPath: key)])
        description.expressionResultType = type
        return description
    }

    /// What one group's dictionary should hold, computed from the rows.
    private static func expected(_ rows: [Row]) -> [String: Any] {
        var values: [String: Any] = [
            "totalGoals": Int64(rows.reduce(0) { $0 + Int64($1.goals) }),
            "ratings": rows.filter { $0.rating != nil }.count,
            "wins": rows.filter(\.won).count,
        ]
        let ratings = rows.compactMap(\.rating)
        if !ratings.isEmpty { values["meanRating"] = ratings.reduce(0, +) / Double(ratings.count) }
        if let latest = rows.compactMap(\.played).max() { values["latest"] = latest }
        if let cheapest = rows.compactMap(\.fee).min() { values["cheapest"] = cheapest }
        if let highest = rows.compactMap(\.fee).max() { values["highestFee"] = highest }
        return values
    }

    private static func check(_ dictionary: NSDictionary, against expected: [String: Any], _ comment: Comment) {
        #expect((dictionary["totalGoals"] as? NSNumber)?.int64Value == expected["totalGoals"] as? Int64, comment)
        #expect((dictionary["ratings"] as? NSNumber)?.intValue == expected["ratings"] as? Int, comment)
        #expect((dictionary["wins"] as? NSNumber)?.intValue == expected["wins"] as? Int, comment)
        #expect((dictionary["meanRating"] as? NSNumber)?.doubleValue == expected["meanRating"] as? Double, comment)
        #expect(dictionary["latest"] as? Date == expected["latest"] as? Date, comment)
        #expect((dictionary["cheapest"] as? NSDecimalNumber)?.decimalValue == expected["cheapest"] as? Decimal, comment)
        #expect((dictionary["highestFee"] as? NSDecimalNumber)?.decimalValue == expected["highestFee"] as? Decimal, comment)
    }

    private static func groupedRequest() -> FetchRequest<NSDictionary> {
        let request = FetchRequest<NSDictionary>(entityName: "Fixture")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [
            "zone",
            function("totalGoals", "sum:", "goals"),
            function("meanRating", "average:", "rating"),
            function("latest", "max:", "played"),
            function("cheapest", "min:", "fee"),
            function("highestFee", "max:", "fee"),
            function("ratings", "count:", "rating"),
            function("wins", "sum:", "won"),
        ]
        request.propertiesToGroupBy = ["zone"]
        return request
    }

    @Test(arguments: StoreKind.withPostgres)
    func groupsMatchTheValuesSaved(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let rows = Self.rows(seed: 15, count: 300)
        try Self.seed(rows, into: stack)
        let context = stack.newContext()
        try context.performAndWait {
            // Every zone, in ascending order of the grouped key (nil first), without sort descriptors.
            let groups = try context.fetch(Self.groupedRequest())
            let zones = Array(Set(rows.map(\.zone)))
            let ordered = zones.sorted { ($0 ?? "") < ($1 ?? "") || ($0 == nil && $1 != nil) }
            #expect(groups.map { $0["zone"] as? String } == ordered)
            for group in groups {
                let zone = group["zone"] as? String
                Self.check(group, against: Self.expected(rows.filter { $0.zone == zone }), "zone \(zone ?? "nil")")
            }

            // A predicate selects the rows before grouping; no grouping makes one group.
            let filtered = Self.groupedRequest()
            filtered.propertiesToFetch = filtered.propertiesToFetch?.filter { $0 is ExpressionDescription }
            filtered.propertiesToGroupBy = nil
            filtered.predicate = try FetchPredicate(format: "goals >= %d AND zone != nil", 3)
            let whole = try context.fetch(filtered)
            #expect(whole.count == 1)
            Self.check(whole[0], against: Self.expected(rows.filter { $0.goals >= 3 && $0.zone != nil }), "filtered")

            // Nothing selected: one group, a sum of 0 and a count of 0, no extremes.
            filtered.predicate = try FetchPredicate(format: "goals > 100")
            let empty = try #require(try context.fetch(filtered).first)
            #expect((empty["totalGoals"] as? NSNumber)?.intValue == 0 && (empty["ratings"] as? NSNumber)?.intValue == 0)
            #expect(empty["latest"] == nil && empty["meanRating"] == nil)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func havingSortAndWindowApplyToTheGroups(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let rows = Self.rows(seed: 7, count: 200)
        try Self.seed(rows, into: stack)
        let totals = Dictionary(grouping: rows, by: \.zone).mapValues { $0.reduce(Int64(0)) { $0 + Int64($1.goals) } }
        let threshold = totals.values.sorted()[1]
        let context = stack.newContext()
        try context.performAndWait {
            let request = Self.groupedRequest()
            request.havingPredicate = try FetchPredicate(format: "totalGoals > %lld AND zone != nil", threshold)
            request.sortDescriptors = [FetchSortDescriptor(key: "totalGoals", ascending: false)]
            let expected = totals.filter { $0.value > threshold && $0.key != nil }.sorted { $0.value > $1.value }
            let groups = try context.fetch(request)
            #expect(groups.map { $0["zone"] as? String } == expected.map(\.key))
            #expect(groups.map { ($0["totalGoals"] as? NSNumber)?.int64Value } == expected.map(\.value))

            request.fetchLimit = 1
            request.fetchOffset = 1
            #expect(try context.fetch(request).map { $0["zone"] as? String } == Array(expected.map(\.key).dropFirst().prefix(1)))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func groupsThroughARelationshipAndResultTypes(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let rows = Self.rows(seed: 3, count: 120)
        try Self.seed(rows, into: stack)
        let context = stack.newContext()
        try context.performAndWait {
            let request = FetchRequest<NSDictionary>(entityName: "Fixture")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["venue.city", Self.function("goals", "sum:", "goals", type: .doubleAttributeType),
                                         Self.function("fixtures", "count:", "venue")]
            request.propertiesToGroupBy = ["venue.city"]
            let groups = try context.fetch(request)
            let cities = Set(rows.map(\.city)).sorted()
            #expect(groups.map { $0["venue.city"] as? String } == cities)
            for group in groups {
                let city = group["venue.city"] as? String
                let matching = rows.filter { $0.city == city }
                // The result type asked for: a double, not the integer a sum of integers is.
                let goals = try #require(group["goals"] as? NSNumber)
                #expect(String(cString: goals.objCType) == "d")
                #expect(goals.doubleValue == Double(matching.reduce(0) { $0 + Int($1.goals) }))
                #expect((group["fixtures"] as? NSNumber)?.intValue == matching.count)
            }
        }
    }

    @Test(arguments: StoreKind.sqlStores)
    func theStoreGroupsInItsSQL(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model(), recordingSQL: true)
        try Self.seed(Self.rows(seed: 1, count: 50), into: stack)
        let log = try #require(stack.log)
        let context = stack.newContext()
        let selects = try log.selects {
            _ = try context.performAndWait { try context.fetch(Self.groupedRequest()) }
        }
        #expect(selects.count == 1, "\(selects)")
        #expect(selects.first?.contains("GROUP BY") == true, "\(selects)")
    }

    @Test func mistakesAreNamed() throws {
        let stack = try TestStack(.sqlite, model: try Self.model())
        let context = stack.newContext()
        func failure(_ change: (FetchRequest<NSDictionary>) throws -> Void) throws -> String {
            let request = Self.groupedRequest()
            try change(request)
            let error = #expect(throws: FetchRequestError.self) { _ = try context.performAndWait { try context.fetch(request) } }
            return error?.message ?? ""
        }
        #expect(try failure { $0.propertiesToFetch?.append("goals") }.contains("'goals' is fetched but not in propertiesToGroupBy"))
        #expect(try failure { $0.propertiesToFetch?.append(Self.function("middle", "median:", "goals")) }
            .contains("median: is not supported"))
        #expect(try failure { $0.propertiesToFetch?.append(Self.function("bad", "sum:", "zone")) }
            .contains("sum cannot be computed over Fixture.zone, a string attribute"))
        #expect(try failure { $0.propertiesToFetch?.append(Self.function("far", "sum:", "venue.city")) }
            .contains("needs one key path to a stored attribute of Fixture"))
        #expect(try failure { $0.havingPredicate = try FetchPredicate(format: "unknownName > 1") }.contains("unknownName"))
        #expect(try failure { $0.sortDescriptors = [FetchSortDescriptor(key: "goals")] }.contains("goals"))
        // A function belongs in an ExpressionDescription, not in a predicate.
        let function = FetchExpression(forFunction: "sum:", arguments: [FetchExpression(forKeyPath: "goals")])
        let predicate = FetchPredicate.comparison(function, .greaterThan, try FetchExpression.constant(1))
        #expect(try failure { $0.predicate = predicate }.contains("is a function"))
    }
}
