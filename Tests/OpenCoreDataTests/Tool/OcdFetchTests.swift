import Foundation
import OpenCoreData
import Testing

/// `ocd fetch`: the objects a request with the same entity, predicate, sort and limit fetches in
/// the app, in the same order, with their values.
@Suite struct OcdFetchTests {
    struct Row: Decodable {
        let id: String
        let entity: String
        let values: [String: JSONScalar]
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let entity: String
        var predicate: String?
        var sort: String?
        var limit: Int?

        var testDescription: String { "\(entity) \(predicate ?? "-") \(sort ?? "-") \(limit.map(String.init) ?? "-")" }

        var arguments: [String] {
            var arguments = ["--entity", entity]
            if let predicate { arguments += ["--predicate", predicate] }
            if let sort { arguments += ["--sort", sort] }
            if let limit { arguments += ["--limit", String(limit)] }
            return arguments
        }

        /// The same request, built in the app.
        func request() throws -> FetchRequest<ManagedObject> {
            let request = FetchRequest<ManagedObject>(entityName: entity)
            request.predicate = try predicate.map { try FetchPredicate(format: $0) }
            request.sortDescriptors = sort?.split(separator: ",").map { term in
                let words = term.split(separator: " ")
                return FetchSortDescriptor(key: String(words[0]), ascending: words.count < 2 || words[1] != "desc")
            }
            request.fetchLimit = limit ?? 0
            return request
        }
    }

    static let cases: [Case] = [
        Case(entity: "Team", sort: "teamName"),
        Case(entity: "Team", predicate: "wins > 1", sort: "wins desc"),
        Case(entity: "Team", predicate: "qualifyingZone == 'UEFA' AND imageName != nil", sort: "qualifyingZone,wins desc", limit: 2),
        Case(entity: "Team", predicate: "teamName BEGINSWITH[cd] 'a' OR coach.name == 'Luis'", sort: "teamName desc"),
        Case(entity: "Player", predicate: "team.qualifyingZone == 'CONMEBOL'", sort: "team.teamName, number desc"),
        Case(entity: "Player", predicate: "ANY clubs.name == 'South FC'", sort: "name", limit: 3),
        Case(entity: "Person", sort: "name"),
        Case(entity: "Sample", sort: "int16 desc"),
    ]

    @Test(arguments: StoreKind.sqlStores, cases)
    func jsonRowsAreTheAppsFetchInOrder(_ kind: StoreKind, _ fetch: Case) async throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        try StoredModelFixtures.seedOthers(stack.newContext())
        let rows = try OcdToolRunner.decode([Row].self, from: try await OcdToolRunner.run(["fetch", stack.storeArgument, "--json"] + fetch.arguments))
        let context = stack.newContext()
        let expected = try context.performAndWait {
            try context.fetch(try fetch.request()).map { object in
                (object.objectID.uriRepresentation().absoluteString, object.entity.name ?? "", OcdFetchTests.expectedValues(of: object))
            }
        }
        #expect(!expected.isEmpty, "the case selects nothing: it proves little")
        #expect(rows.map(\.id) == expected.map(\.0))
        #expect(rows.map(\.entity) == expected.map(\.1))
        for (row, values) in zip(rows, expected.map(\.2)) {
            #expect(row.values == values, "\(row.id)")
        }
    }

    /// Every attribute type as JSON: numbers as numbers (a float by its shortest form), dates in
    /// ISO 8601, data in base 64, UUIDs and URLs as strings, nil as null.
    @Test func everyAttributeTypeHasItsJSONForm() async throws {
        let stack = try TestStack()
        try StoredModelFixtures.seedOthers(stack.newContext())
        let rows = try OcdToolRunner.decode([Row].self, from: try await OcdToolRunner.run(
            ["fetch", stack.storeURL.path, "--entity", "Sample", "--sort", "int", "--json"]))
        try #require(rows.count == 3)
        let context = stack.newContext()
        let samples = try context.performAndWait { try context.all(Sample.self, sortedBy: "int") }
        for (row, sample) in zip(rows, samples) {
            let (values, expected) = (row.values, context.performAndWait { OcdFetchTests.expectedValues(of: sample) })
            #expect(values == expected)
        }
        #expect(rows[1].values["float"] == .number(0.1))
        #expect(rows[1].values["int32"] == .number(70_000))
        #expect(rows[2].values["decimal"] == .number(24.68))
        #expect(rows[1].values["bool"] == .bool(true))
        #expect(rows[0].values["string"] == .null)
        #expect(rows[1].values["string"] == .string("sample 1\nline"))
        #expect(rows[1].values["date"] == .string("2001-01-01T00:16:40.500Z"))
        #expect(rows[1].values["data"] == .string(Data([1, 0, 255]).base64EncodedString()))
        #expect(rows[1].values["url"] == .string("https://example.com/1"))
    }

    @Test func textIsATableWithACount() async throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        let result = try await OcdToolRunner.run(["fetch", stack.storeURL.path, "--entity", "Team", "--predicate", "wins >= 3",
                                                  "--sort", "wins desc"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        try #require(lines.count == 5)
        #expect(lines[0] == ["id", "teamName", "qualifyingZone", "imageName", "wins", "coach"])
        #expect(lines[1].dropFirst() == ["Brazil", "CONMEBOL", "br.png", "5"] + [lines[1].last ?? ""])
        #expect(lines[1][0].hasPrefix("Team/p") && (lines[1].last?.hasPrefix("x-coredata://") ?? false))
        #expect(lines[2][1] == "Germany" && lines[2][4] == "4" && lines[2][5] == "nil")
        #expect(lines[3][1] == "Argentina" && lines[3][3] == "nil")
        #expect(lines[4] == ["3", "objects"])
    }

    /// What `ocd` must print for an object: its attributes and to-ones, read in the app.
    static func expectedValues(of object: ManagedObject) -> [String: JSONScalar] {
        var values: [String: JSONScalar] = [:]
        for (name, property) in object.entity.propertiesByName where !property.isTransient {
            if let relationship = property as? RelationshipDescription {
                if !relationship.isToMany {
                    values[name] = (object.value(forKey: name) as? ManagedObject).map { .string($0.objectID.uriRepresentation().absoluteString) } ?? .null
                }
                continue
            }
            values[name] = JSONScalar(object.value(forKey: name), type: (property as? AttributeDescription)?.attributeType)
        }
        return values
    }
}

/// A JSON value `ocd` prints for an attribute, decoded; or built from a value as the app reads it.
enum JSONScalar: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    init(_ value: Any?, type: AttributeType?) {
        switch (value, type) {
        case (nil, _): self = .null
        case (let number as NSNumber, .boolean?): self = .bool(number.boolValue)
        case (let number as NSNumber, .float?): self = .number(Double("\(number.floatValue)") ?? 0)
        case (let number as NSDecimalNumber, .decimal?): self = .number(number.doubleValue)
        case (let number as NSNumber, _): self = .number(number.doubleValue)
        case (let string as String, _): self = .string(string)
        case (let date as Date, _): self = .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case (let data as Data, _): self = .string(data.base64EncodedString())
        case (let uuid as UUID, _): self = .string(uuid.uuidString)
        case (let url as URL, _): self = .string(url.absoluteString)
        case (let value?, _): self = .string("\(value)")
        }
    }
}
