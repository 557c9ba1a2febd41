import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

// Differential fuzzing of fetch predicates and sort descriptors.
//
// Every case is a random predicate (and random sort descriptors) run three ways on the same data:
//
//   1. `fetch` on the SQLite store, in a fresh context with no pending changes, so that the
//      predicate is compiled to SQL (the test also asks the store whether any part of the
//      predicate was left to memory, and compares the store's SQL `COUNT`);
//   2. every object of the entity fetched without a predicate and filtered in memory with
//      `FetchPredicate.evaluate(with:)` (then ordered with the context's in-memory sort, the one
//      that places unsaved objects among fetched rows);
//   3. `fetch` on an in-memory store holding the same data (its own evaluator and sort).
//
// Objects are identified by a unique `index` attribute, since object IDs differ between stores
// (object constants are written as `$OBJ_<Entity>_<index>` and bound per store). All three sets,
// and the orders, must be equal; a predicate the store leaves partly to memory is a finding too.
// On a mismatch the test prints the seed, the case, the predicate, the three results, a shrunk
// predicate and (for the first reports) a shrunk dataset that still disagree.
//
// Datasets: 20-40 PDThings (every attribute type, mostly optional) with a to-one owner, to-many
// items (inverse to-one) and many-to-many tags, values from small pools full of edge cases.
// Predicates: trees of depth <= 3 of AND/OR/NOT (also empty and single-operand ones) over
// attribute-vs-constant comparisons of every operator valid for the type (IN lists with nil,
// BETWEEN, string operators with [c]/[d]/[cd], LIKE and MATCHES patterns), constants on the
// left, key paths through one or two to-ones, ANY/ALL/NONE and plain to-many key paths (also
// through a to-one before or after the to-many, and to-many of to-many), `value IN collection`,
// @count/@sum/@avg/@min/@max (no decimal @sum/@avg, which memory evaluates by design),
// SUBQUERY(...).@count with nested subqueries and references to enclosing variables, SELF and
// to-one against objects, nil and IN lists, key path against key path, TRUE/FALSEPREDICATE; and
// edge shapes (`edgeComparison`): NaN arguments against attributes, elements, aggregates and
// counts, two constants (also lists under ANY/ALL/NONE) with [c]/[d], ANY/ALL/NONE on a single
// value and NUL characters in constants (both refused by every side), and rarely whole
// predicates about a thousand comparisons wide or a dozen levels deep (`largePredicate`).
// Fetches are of PDThing mostly, also PDItem, PDTag and PDOwner; with random sort descriptors
// (binary, case-insensitive, localized standard; through to-ones) and sometimes limit/offset.
//
// Environment variables (all optional):
//   OCD_FUZZ_SEED=<n>              base seed (decimal or 0x hex); default a fixed seed
//   OCD_FUZZ_CASES=<n>             number of predicate cases; default 10_000 (5,000 on PostgreSQL)
//   OCD_POSTGRES_FUZZ_CASES=<n>    the PostgreSQL run's alone (CI runs 2,000)
//   OCD_FUZZ_PER_DATASET=<n>       predicate cases per dataset; default 100
//   OCD_FUZZ_ONLY=<dataset>:<case> run only that case (as printed on failure)
//   OCD_FUZZ_ENABLE=a,b|all        re-enable constructs excluded by `FuzzExclusions`
//   OCD_FUZZ_MAX_REPORTS=<n>       mismatches printed in full; default 12
//   OCD_FUZZ_NO_SHRINK=1           print mismatches without shrinking them
//   OCD_FUZZ_WORKERS=<n>           datasets run on n threads; default 2

// MARK: - Model

final class PDThing: ManagedObject {
    @Managed var index: Int64 = 0
    @Managed var level: Int16 = 0
    @Managed var i16: Int16?
    @Managed var i32: Int32?
    @Managed var i64: Int64?
    @Managed var dbl: Double?
    @Managed var flt: Float?
    @Managed var dec: Decimal?
    @Managed var str: String?
    @Managed var str2: String?
    @Managed var flag: Bool?
    @Managed var date: Date?
    @Managed var data: Data?
    @Managed var uuid: UUID?
    @Managed var url: URL?
    @Managed(inverse: "things") var owner: PDOwner?
    @Managed(inverse: "thing", deleteRule: .cascade) var items: Set<PDItem>
    @Managed(inverse: "things") var tags: Set<PDTag>
}

final class PDOwner: ManagedObject {
    @Managed var index: Int64 = 0
    @Managed var name: String?
    @Managed var rank: Int32?
    @Managed var score: Double?
    @Managed var cost: Decimal?
    @Managed var since: Date?
    @Managed(inverse: "owner") var things: Set<PDThing>
}

final class PDItem: ManagedObject {
    @Managed var index: Int64 = 0
    @Managed var amount: Int64?
    @Managed var price: Double?
    @Managed var cost: Decimal?
    @Managed var label: String?
    @Managed var paid: Bool?
    @Managed var when: Date?
    @Managed(inverse: "items") var thing: PDThing?
}

final class PDTag: ManagedObject {
    @Managed var index: Int64 = 0
    @Managed var name: String?
    @Managed var weight: Int16?
    @Managed(inverse: "tags") var things: Set<PDThing>
}

// MARK: - Exclusions

/// Constructs the generator leaves out because SQL and memory currently disagree on them. The
/// test stays strict: everything generated must agree. Turn a construct back on with
/// `OCD_FUZZ_ENABLE=<name>[,<name>...]` (or `all`) to reproduce its mismatch; delete its flag once
/// the fix is in. Root causes, by flag:
struct FuzzExclusions: Sendable {
    var names: Set<String> = []

    /// `url == str`, `url < owner.name`, `str BEGINSWITH url`, `items.@max.label != url`: memory
    /// compares `.uri` with `.string` through `PropertyValue.compare`'s type-rank fallback (always
    /// "equal") and the string operators require two `.string`s, while SQL compares the TEXT.
    /// Memory is wrong (the resolver accepts URL/string pairs, so they compare as text).
    static let urlVersusString = "urlVersusString"
    /// A decimal constant against a computed number (`items.@count > 1.5`, `items.@sum.amount <
    /// 2.0` given as a Decimal, `SUBQUERY(...).@count == 2`): the constant is bound as TEXT, and a
    /// scalar subquery has no affinity to convert it, so SQLite orders every number before any
    /// TEXT. SQL is wrong.
    static let decimalConstantVersusComputedNumber = "decimalConstantVersusComputedNumber"
    /// `@min`/`@max` of a decimal attribute against a constant (`items.@max.cost > 3`): the
    /// scalar subquery loses the column's `ocd_decimal` collation, so "10" < "3" as bytes. SQL is
    /// wrong.
    static let decimalMinMax = "decimalMinMax"
    /// `@sum` of 64-bit integers whose running total overflows: SQLite's SUM raises "integer
    /// overflow" and the whole fetch (and count) throws, while memory wraps around (`&+=`) and
    /// answers. Both are wrong; neither follows the other.
    static let integerSumOverflow = "integerSumOverflow"
    /// `toOne IN {objects}` under NOT (or ALL) when the to-one is nil: the object comparison is
    /// never wrapped in IFNULL, so NOT (NULL IN (...)) is NULL and drops a row memory keeps. SQL
    /// is wrong.
    static let negatedObjectIn = "negatedObjectIn"
    /// Strings holding U+0000: GRDB binds text as C strings, so SQLite would keep "a\u{0}b" as
    /// "a". By design every store refuses such strings (assignments fail the save, predicate
    /// constants throw), so they are left out of generated data; BadInputTests checks the refusal.
    /// (`edgeComparison` still puts them in constants, which every side must refuse.)
    static let nulCharacter = "nulCharacter"
    /// Infinite doubles: `@sum`/`@avg` of +inf and -inf is NaN in memory, but SQLite has no NaN
    /// (NULL, which `IFNULL(SUM(x), 0)` turns into 0); and a computed double meeting a decimal
    /// column is turned into TEXT by SQLite ("-Inf", which `ocd_decimal` cannot parse and orders
    /// as bytes). The second also hits finite values: SQLite writes a computed REAL with 15
    /// significant digits, so `items.@sum.price == owner.cost` is true in SQL and false in memory
    /// for prices 0.1 and 0.2 and a cost of 0.3.
    static let infinity = "infinity"
    /// An object key path against another (`owner == owner`, `$v.thing == SELF`): results
    /// agree, but the compiler has no SQL for it and the conjunct is evaluated in memory (a
    /// "fallback" finding).
    static let objectKeyPaths = "objectKeyPaths"

    static let all: [String] = [nulCharacter]

    static func current() -> FuzzExclusions {
        let enabled = Set((ProcessInfo.processInfo.environment["OCD_FUZZ_ENABLE"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if enabled.contains("all") { return FuzzExclusions(names: []) }
        return FuzzExclusions(names: Set(all).subtracting(enabled))
    }

    func excludes(_ name: String) -> Bool { names.contains(name) }
}

// MARK: - Random numbers

typealias PDRandom = SplitMix64

/// Helpers the generators draw with.
extension SplitMix64 {
    /// A seed derived from a parent seed and a number, for reproducing one part alone.
    static func derive(_ seed: UInt64, _ number: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ (number &* 0xD6E8_FEB8_6659_FD93))
        return generator.next()
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }

    /// One of `choices`, with probability proportional to its weight.
    mutating func weighted<T>(_ choices: [(Int, T)]) -> T {
        let total = choices.reduce(0) { $0 + $1.0 }
        var roll = Int.random(in: 0..<total, using: &self)
        for (weight, value) in choices {
            if roll < weight { return value }
            roll -= weight
        }
        return choices[choices.count - 1].1
    }
}

// MARK: - Schema as the generator sees it

enum FuzzKind: Sendable, Hashable {
    case int16, int32, int64, double, float, decimal, string, bool, date, data, uuid, url

    var isNumeric: Bool {
        switch self {
        case .int16, .int32, .int64, .double, .float, .decimal, .bool: true
        default: false
        }
    }

    var isInteger: Bool { self == .int16 || self == .int32 || self == .int64 }

    /// Kinds a key path of this kind may be compared with.
    func compatible(with other: FuzzKind) -> Bool {
        if self == other { return true }
        if isNumeric && other.isNumeric { return true }
        return (self == .string && other == .url) || (self == .url && other == .string)
    }

    /// Kinds whose values have an order @min/@max can take.
    var isOrderedForAggregates: Bool { isNumeric || self == .string || self == .date }
}

struct FuzzAttribute: Sendable {
    let name: String
    let kind: FuzzKind
    let optional: Bool
}

struct FuzzRelationship: Sendable {
    let name: String
    let target: String
    let toMany: Bool
}

struct FuzzEntity: Sendable {
    let name: String
    let attributes: [FuzzAttribute]
    let relationships: [FuzzRelationship]

    var toOnes: [FuzzRelationship] { relationships.filter { !$0.toMany } }
    var toManys: [FuzzRelationship] { relationships.filter(\.toMany) }
}

enum FuzzSchema {
    static let thing = FuzzEntity(name: "PDThing", attributes: [
        FuzzAttribute(name: "index", kind: .int64, optional: false),
        FuzzAttribute(name: "level", kind: .int16, optional: false),
        FuzzAttribute(name: "i16", kind: .int16, optional: true),
        FuzzAttribute(name: "i32", kind: .int32, optional: true),
        FuzzAttribute(name: "i64", kind: .int64, optional: true),
        FuzzAttribute(name: "dbl", kind: .double, optional: true),
        FuzzAttribute(name: "flt", kind: .float, optional: true),
        FuzzAttribute(name: "dec", kind: .decimal, optional: true),
        FuzzAttribute(name: "str", kind: .string, optional: true),
        FuzzAttribute(name: "str2", kind: .string, optional: true),
        FuzzAttribute(name: "flag", kind: .bool, optional: true),
        FuzzAttribute(name: "date", kind: .date, optional: true),
        FuzzAttribute(name: "data", kind: .data, optional: true),
        FuzzAttribute(name: "uuid", kind: .uuid, optional: true),
        FuzzAttribute(name: "url", kind: .url, optional: true),
    ], relationships: [
        FuzzRelationship(name: "owner", target: "PDOwner", toMany: false),
        FuzzRelationship(name: "items", target: "PDItem", toMany: true),
        FuzzRelationship(name: "tags", target: "PDTag", toMany: true),
    ])

    static let owner = FuzzEntity(name: "PDOwner", attributes: [
        FuzzAttribute(name: "index", kind: .int64, optional: false),
        FuzzAttribute(name: "name", kind: .string, optional: true),
        FuzzAttribute(name: "rank", kind: .int32, optional: true),
        FuzzAttribute(name: "score", kind: .double, optional: true),
        FuzzAttribute(name: "cost", kind: .decimal, optional: true),
        FuzzAttribute(name: "since", kind: .date, optional: true),
    ], relationships: [
        FuzzRelationship(name: "things", target: "PDThing", toMany: true),
    ])

    static let item = FuzzEntity(name: "PDItem", attributes: [
        FuzzAttribute(name: "index", kind: .int64, optional: false),
        FuzzAttribute(name: "amount", kind: .int64, optional: true),
        FuzzAttribute(name: "price", kind: .double, optional: true),
        FuzzAttribute(name: "cost", kind: .decimal, optional: true),
        FuzzAttribute(name: "label", kind: .string, optional: true),
        FuzzAttribute(name: "paid", kind: .bool, optional: true),
        FuzzAttribute(name: "when", kind: .date, optional: true),
    ], relationships: [
        FuzzRelationship(name: "thing", target: "PDThing", toMany: false),
    ])

    static let tag = FuzzEntity(name: "PDTag", attributes: [
        FuzzAttribute(name: "index", kind: .int64, optional: false),
        FuzzAttribute(name: "name", kind: .string, optional: true),
        FuzzAttribute(name: "weight", kind: .int16, optional: true),
    ], relationships: [
        FuzzRelationship(name: "things", target: "PDThing", toMany: true),
    ])

    static let entities: [String: FuzzEntity] = [
        thing.name: thing, owner.name: owner, item.name: item, tag.name: tag,
    ]

    /// Creation order: destinations of to-ones first.
    static let order = ["PDOwner", "PDTag", "PDThing", "PDItem"]

    static func entity(_ name: String) -> FuzzEntity { entities[name]! }
}

// MARK: - Value pools

/// Small pools, so that equal values, nils and edge cases meet often.
enum FuzzPools {
    static let strings: [String] = [
        "", "a", "A", "b", "ab", "abc", "Ab", "á", "Á", "e\u{301}", "é", "É", "ß", "straße", "STRASSE", "strasse",
        "😀", "a😀", "x%y", "x_y", "a*b", "a?b", "?", "*", "\\", "x.y", "xy", "'", "\"", "it's",
        "'); DROP TABLE PDThing; --", "10", "9", "file2", "file10", " a", "a ",
        "a\u{0}b", "\u{0}", "ı", "İ", "i", "I", "ﬁ", "fi", "\u{212B}", "\u{C5}",
    ]
    /// Substrings for BEGINSWITH, ENDSWITH and CONTAINS.
    static let parts: [String] = [
        "", "a", "A", "b", "e", "é", "e\u{301}", "\u{301}", "ss", "SS", "ß", "%", "_", "*", "?", "'", "😀", "x", "STR",
        "stra", "Á", "file", "1", " ", "\u{0}", "a\u{0}", "ﬁ", "fi", "i", "\u{C5}",
    ]
    static let likePatterns: [String] = [
        "*", "a*", "*a", "?", "a?b", "a*b", "*\\**", "x%y", "x_y", "?*", "é*", "e*", "*ß*", "", "\\?", "s*e", "A*",
        "??", "*'*", "file?", "e?", "*😀", "a\\*b",
    ]
    static let regexes: [String] = [
        "a.*", "[ab]+", "x\\.y", ".*", ".", "e\u{301}", "é", "straße", "(?i)a.*", "[^a]*", "a|b", "\\d+", "", ".*'.*",
        "x.y", "\\w+", "[", "e.", "..", "[a-z]*", "STRASSE|straße",
    ]
    static let small16: [Int64] = [-3, -1, 0, 1, 2, 3, 5, 7, 100]
    static let integerConstants: [Int64] = [-3, -1, 0, 1, 2, 3, 5, 7, 100, 40000, -40000]
    static let big64: [Int64] = [9_007_199_254_740_993, -9_007_199_254_740_993, Int64.max, Int64.min]
    static let doubles: [Double] = [-1.5, -0.25, 0, -0.0, 0.25, 0.5, 1, 2, 2.75, 3, 100.5, .infinity, -.infinity]
    static let doubleConstants: [Double] = [-1.5, -0.25, 0, 0.25, 0.5, 1, 2.5, 3, 100.5, 0.1, 9_007_199_254_740_992, .infinity, -.infinity]
    static let decimals: [Decimal] = ["0", "1.5", "10", "0.001", "-2.25", "3", "100", "2", "0.1", "9007199254740993",
                                      "123456789012345678901234567890"].map { Decimal(string: $0)! }
    static let dates: [Date] = [0, 86_400, -3_600.5, 1e9, 1e9 + 0.25, 86_400.75].map(Date.init(timeIntervalSinceReferenceDate:))
    static let datas: [Data] = [Data(), Data([0]), Data([0, 1]), Data([1]), Data([0xFF]), Data([0, 0]), Data([0x61])]
    static let uuids: [UUID] = [
        "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-000000000002",
        "FFFFFFFF-0000-0000-0000-000000000000", "12345678-9ABC-DEF0-1234-56789ABCDEF0",
    ].map { UUID(uuidString: $0)! }
    static let urls: [URL] = [
        "https://a.example/x", "https://a.example/x?y=1", "https://b.example/", "file:///tmp/a%20b", "mailto:z@e.org", "a",
    ].map { URL(string: $0)! }

    /// The pools without values an exclusion leaves out.
    static func strings(_ exclusions: FuzzExclusions) -> [String] {
        exclusions.excludes(FuzzExclusions.nulCharacter) ? strings.filter { !$0.contains("\u{0}") } : strings
    }

    static func parts(_ exclusions: FuzzExclusions) -> [String] {
        exclusions.excludes(FuzzExclusions.nulCharacter) ? parts.filter { !$0.contains("\u{0}") } : parts
    }

    static func doubles(_ exclusions: FuzzExclusions) -> [Double] {
        exclusions.excludes(FuzzExclusions.infinity) ? doubles.filter(\.isFinite) : doubles
    }

    static func doubleConstants(_ exclusions: FuzzExclusions) -> [Double] {
        exclusions.excludes(FuzzExclusions.infinity) ? doubleConstants.filter(\.isFinite) : doubleConstants
    }

    /// A stored value for an attribute.
    static func value(_ kind: FuzzKind, _ rng: inout PDRandom, _ exclusions: FuzzExclusions) -> any Sendable {
        let strings = strings(exclusions), doubles = doubles(exclusions)
        switch kind {
        case .int16: return Int16(rng.pick(small16))
        case .int32: return Int32(rng.chance(0.05) ? rng.pick([Int64(40000), -40000]) : rng.pick(small16))
        case .int64: return rng.chance(0.05) ? rng.pick(big64) : rng.pick(small16)
        case .double: return rng.pick(doubles)
        case .float: return Float(rng.pick(doubles))
        case .decimal: return rng.pick(decimals)
        case .string: return rng.pick(strings)
        case .bool: return rng.chance(0.5)
        case .date: return rng.pick(dates)
        case .data: return rng.pick(datas)
        case .uuid: return rng.pick(uuids)
        case .url: return rng.pick(urls)
        }
    }
}

// MARK: - Datasets

struct FuzzObjectSpec: Sendable {
    var entity: String
    var index: Int64
    /// Attribute values in schema order; nil is NULL.
    var attributes: [(name: String, value: (any Sendable)?)]
    /// To-one relationships set from this side: relationship name and the destination's index.
    var toOne: [(name: String, target: Int64?)]
    /// Many-to-many relationships set from this side.
    var toMany: [(name: String, targets: [Int64])]

    var key: String { FuzzDataset.key(entity, index) }
}

struct FuzzDataset: Sendable {
    var objects: [FuzzObjectSpec]

    static func key(_ entity: String, _ index: Int64) -> String { "OBJ_\(entity)_\(index)" }

    func objects(of entity: String) -> [FuzzObjectSpec] { objects.filter { $0.entity == entity } }

    static func generate(_ rng: inout PDRandom, _ exclusions: FuzzExclusions) -> FuzzDataset {
        var objects: [FuzzObjectSpec] = []
        func attributes(_ entity: FuzzEntity, nilChance: Double) -> [(name: String, value: (any Sendable)?)] {
            entity.attributes.filter { $0.name != "index" }.map { attribute in
                let isNil = attribute.optional && rng.chance(nilChance)
                return (attribute.name, isNil ? nil : FuzzPools.value(attribute.kind, &rng, exclusions))
            }
        }
        let ownerCount = rng.int(2...6), tagCount = rng.int(2...6), thingCount = rng.int(20...40)
        let nilChance = rng.pick([0.1, 0.2, 0.35])
        for index in 0..<ownerCount {
            objects.append(FuzzObjectSpec(entity: "PDOwner", index: Int64(index), attributes: attributes(FuzzSchema.owner, nilChance: nilChance),
                                          toOne: [], toMany: []))
        }
        for index in 0..<tagCount {
            objects.append(FuzzObjectSpec(entity: "PDTag", index: Int64(index), attributes: attributes(FuzzSchema.tag, nilChance: nilChance),
                                          toOne: [], toMany: []))
        }
        var itemIndex: Int64 = 0
        var items: [FuzzObjectSpec] = []
        for index in 0..<thingCount {
            let owner: Int64? = rng.chance(0.2) ? nil : Int64(rng.int(0...(ownerCount - 1)))
            var tags: Set<Int64> = []
            for _ in 0..<rng.weighted([(3, 0), (4, 1), (3, 2), (1, 4)]) { tags.insert(Int64(rng.int(0...(tagCount - 1)))) }
            objects.append(FuzzObjectSpec(entity: "PDThing", index: Int64(index), attributes: attributes(FuzzSchema.thing, nilChance: nilChance),
                                          toOne: [("owner", owner)], toMany: [("tags", tags.sorted())]))
            for _ in 0..<rng.weighted([(3, 0), (3, 1), (3, 2), (2, 3), (1, 5)]) {
                items.append(FuzzObjectSpec(entity: "PDItem", index: itemIndex, attributes: attributes(FuzzSchema.item, nilChance: nilChance),
                                            toOne: [("thing", Int64(index))], toMany: []))
                itemIndex += 1
            }
        }
        // Items of different things interleaved, so that primary keys do not follow owners.
        items.shuffle(using: &rng)
        for position in items.indices { items[position].index = Int64(position) }
        return FuzzDataset(objects: objects + items)
    }

    /// The dataset without some objects (and without links to them).
    func removing(_ keys: Set<String>) -> FuzzDataset {
        var result = FuzzDataset(objects: objects.filter { !keys.contains($0.key) })
        for position in result.objects.indices {
            let object = result.objects[position]
            for (slot, link) in object.toOne.enumerated() {
                guard let target = link.target else { continue }
                let targetEntity = FuzzSchema.entity(object.entity).relationships.first { $0.name == link.name }!.target
                if keys.contains(Self.key(targetEntity, target)) { result.objects[position].toOne[slot].target = nil }
            }
            for (slot, link) in object.toMany.enumerated() {
                let targetEntity = FuzzSchema.entity(object.entity).relationships.first { $0.name == link.name }!.target
                result.objects[position].toMany[slot].targets = link.targets.filter { !keys.contains(Self.key(targetEntity, $0)) }
            }
        }
        // An item without its thing would just be a stray item: drop it with its thing.
        let things = Set(result.objects(of: "PDThing").map(\.index))
        result.objects.removeAll { $0.entity == "PDItem" && $0.toOne.contains { $0.name == "thing" && ($0.target.map { !things.contains($0) } ?? true) } }
        return result
    }

    /// Inserts the dataset into a context and saves it.
    func insert(into context: ManagedObjectContext) throws {
        try context.performAndWait {
            var created: [String: ManagedObject] = [:]
            for entity in FuzzSchema.order {
                for spec in objects(of: entity) {
                    let object: ManagedObject = switch entity {
                    case "PDOwner": PDOwner(context: context)
                    case "PDTag": PDTag(context: context)
                    case "PDThing": PDThing(context: context)
                    default: PDItem(context: context)
                    }
                    object.setValue(spec.index, forKey: "index")
                    for (name, value) in spec.attributes { object.setValue(value, forKey: name) }
                    created[spec.key] = object
                }
            }
            for spec in objects {
                let object = created[spec.key]!
                let relationships = FuzzSchema.entity(spec.entity).relationships
                for (name, target) in spec.toOne {
                    let entity = relationships.first { $0.name == name }!.target
                    object.setValue(target.flatMap { created[Self.key(entity, $0)] }, forKey: name)
                }
                for (name, targets) in spec.toMany {
                    let entity = relationships.first { $0.name == name }!.target
                    object.setValue(Set(targets.compactMap { created[Self.key(entity, $0)] }), forKey: name)
                }
            }
            try context.save()
        }
    }

    /// The objects, readably, for a failure report.
    func describe(_ keys: Set<String>? = nil) -> String {
        var lines: [String] = []
        for entity in FuzzSchema.order {
            for spec in objects(of: entity) where keys?.contains(spec.key) ?? true {
                var parts = spec.attributes.map { "\($0.name): \(Self.show($0.value))" }
                parts += spec.toOne.map { "\($0.name): \($0.target.map { "#\($0)" } ?? "nil")" }
                parts += spec.toMany.map { "\($0.name): [\($0.targets.map { "#\($0)" }.joined(separator: ", "))]" }
                lines.append("  \(spec.entity) #\(spec.index) { \(parts.joined(separator: ", ")) }")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func show(_ value: Any?) -> String {
        switch value {
        case nil: "nil"
        case let string as String: string.debugDescription
        case let date as Date: "Date(\(date.timeIntervalSinceReferenceDate))"
        case let data as Data: "Data(\(Array(data)))"
        case let url as URL: "URL(\(url.absoluteString.debugDescription))"
        case let decimal as Decimal: "Decimal(\(decimal))"
        case let value?: "\(value)"
        }
    }
}

// MARK: - Predicate generator

/// Where key paths start: the fetched object, or a subquery's variable (with the fetched object
/// still reachable as the outer scope).
struct FuzzScope {
    var root: FetchExpression.KeyPathRoot
    var entity: FuzzEntity
    /// In a subquery, the scopes around it: the fetched object and outer subqueries' variables.
    var enclosing: [(root: FetchExpression.KeyPathRoot, entity: FuzzEntity)] = []
    var depth: Int

    /// A scope for a key path on the other side of a comparison: this one or an enclosing one.
    func around(_ rng: inout PDRandom) -> FuzzScope {
        guard !enclosing.isEmpty, rng.chance(0.5) else { return self }
        let (root, entity) = rng.pick(enclosing)
        return FuzzScope(root: root, entity: entity, depth: 0)
    }
}

/// A key path the generator built: its components from the scope's root and what it yields.
struct FuzzPath {
    var components: [String]
    var kind: FuzzKind
    var root: FetchExpression.KeyPathRoot

    var node: FetchExpression.Node { .keyPath(root: root, components: components) }
}

struct PredicateGenerator {
    var rng: PDRandom
    let exclusions: FuzzExclusions
    /// The dataset's objects, by entity, for object constants.
    let indexes: [String: [Int64]]
    private var variableCount = 0

    init(seed: UInt64, exclusions: FuzzExclusions, indexes: [String: [Int64]]) {
        rng = PDRandom(seed: seed)
        self.exclusions = exclusions
        self.indexes = indexes
    }

    mutating func predicate(for entity: FuzzEntity) -> FetchPredicate.Node {
        let scope = FuzzScope(root: .object, entity: entity, depth: 0)
        if let large = largePredicate(scope) { return large }
        return predicate(scope, depth: rng.int(0...3))
    }

    mutating func sortDescriptors(for entity: FuzzEntity) -> [FetchSortDescriptor] {
        var keys: [(String, FuzzKind)] = entity.attributes.map { ($0.name, $0.kind) }
        for relationship in entity.toOnes {
            let target = FuzzSchema.entity(relationship.target)
            keys += target.attributes.map { ("\(relationship.name).\($0.name)", $0.kind) }
            for next in target.toOnes {
                keys += FuzzSchema.entity(next.target).attributes.map { ("\(relationship.name).\(next.name).\($0.name)", $0.kind) }
            }
        }
        let count = rng.weighted([(1, 0), (5, 1), (3, 2), (1, 3)])
        return (0..<count).map { _ in
            let (key, kind) = rng.chance(0.4) ? rng.pick(keys.filter { $0.1 == .string }) : rng.pick(keys)
            let comparison: FetchSortDescriptor.Comparison = kind == .string || rng.chance(0.1)
                ? rng.pick([.binary, .caseInsensitive, .localizedStandard]) : .binary
            return FetchSortDescriptor(key: key, ascending: rng.chance(0.5), comparison: comparison)
        }
    }

    // MARK: Trees

    private mutating func predicate(_ scope: FuzzScope, depth: Int) -> FetchPredicate.Node {
        if depth == 0 || rng.chance(0.3) { return leaf(scope) }
        switch rng.weighted([(4, 0), (4, 1), (2, 2)]) {
        case 0: return .and((0..<rng.weighted([(1, 0), (6, 1), (40, 2), (12, 3)])).map { _ in predicate(scope, depth: depth - 1) })
        case 1: return .or((0..<rng.weighted([(1, 0), (6, 1), (40, 2), (12, 3)])).map { _ in predicate(scope, depth: depth - 1) })
        default: return .not(predicate(scope, depth: depth - 1))
        }
    }

    private mutating func leaf(_ scope: FuzzScope) -> FetchPredicate.Node {
        if rng.chance(0.04) { return edgeComparison(scope) }
        let entity = scope.entity
        var choices: [(Int, Int)] = [(30, 0), (4, 1), (8, 8), (2, 9)]
        if !entity.toManys.isEmpty || entity.toOnes.contains(where: { !FuzzSchema.entity($0.target).toManys.isEmpty }) {
            choices += [(16, 2), (10, 3), (2, 10)]
            if scope.depth < 2 { choices.append((6, 4)) }
        }
        choices.append((7, 5))
        choices.append((2, 6))
        choices.append((6, 7))
        choices.append((2, 11))
        switch rng.weighted(choices) {
        case 0: return scalarComparison(scope)
        case 1: return flippedComparison(scope)
        case 2: return collectionComparison(scope)
        case 3: return aggregateComparison(scope)
        case 4: return subqueryComparison(scope)
        case 5: return objectComparison(scope)
        case 6: return .constant(rng.chance(0.5))
        case 7: return keyPathComparison(scope)
        case 8: return nilComparison(scope)
        case 9: return scalarComparison(scope, hops: 2)
        case 11: return emptyPartComparison(scope)
        default: return constantInCollection(scope)
        }
    }

    /// `str BEGINSWITH ""`, `ANY items.label CONTAINS[d] "\u{301}"` (empty once folded): an empty
    /// part matches no string, on every path.
    private mutating func emptyPartComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        let op = rng.pick([FetchPredicate.Operator.beginsWith, .endsWith, .contains])
        let part = FetchExpression.Node.constant(.string(rng.pick(["", "", "\u{301}"])))
        let options = options(for: .string)
        if rng.chance(0.3), let (steps, entity) = collectionSteps(scope),
           let label = entity.attributes.filter({ $0.kind == .string }).randomElement(using: &rng) {
            let modifier: FetchPredicate.Modifier = rng.pick([.any, .all, .none])
            return comparison(.keyPath(root: scope.root, components: steps + [label.name]), op, part, modifier: modifier, options: options)
        }
        guard let path = scalarPath(scope, hops: 1, filter: { $0.kind == .string }) else { return .constant(true) }
        return comparison(path.node, op, part, options: options)
    }

    // MARK: Key paths

    /// An attribute reached through up to `hops` to-one relationships.
    private mutating func scalarPath(_ scope: FuzzScope, hops: Int = 1, filter: (FuzzAttribute) -> Bool = { _ in true }) -> FuzzPath? {
        var entity = scope.entity
        var components: [String] = []
        for _ in 0..<hops where !entity.toOnes.isEmpty && rng.chance(0.3) {
            let relationship = rng.pick(entity.toOnes)
            components.append(relationship.name)
            entity = FuzzSchema.entity(relationship.target)
        }
        let attributes = entity.attributes.filter(filter)
        guard !attributes.isEmpty else { return nil }
        let attribute = rng.pick(attributes)
        return FuzzPath(components: components + [attribute.name], kind: attribute.kind, root: scope.root)
    }

    /// Relationship steps that pass through at least one to-many, and the entity they reach.
    private mutating func collectionSteps(_ scope: FuzzScope) -> ([String], FuzzEntity)? {
        var entity = scope.entity
        var components: [String] = []
        if rng.chance(0.2), let toOne = entity.toOnes.filter({ !FuzzSchema.entity($0.target).toManys.isEmpty }).randomElement(using: &rng) {
            components.append(toOne.name)
            entity = FuzzSchema.entity(toOne.target)
        }
        guard !entity.toManys.isEmpty else { return nil }
        let toMany = rng.pick(entity.toManys)
        components.append(toMany.name)
        entity = FuzzSchema.entity(toMany.target)
        // Occasionally continue through a to-one or another to-many.
        if rng.chance(0.15), !entity.relationships.isEmpty {
            let next = rng.pick(entity.relationships)
            components.append(next.name)
            entity = FuzzSchema.entity(next.target)
        }
        return (components, entity)
    }

    // MARK: Constants

    private mutating func constant(for kind: FuzzKind, allowNil: Bool = true) -> PropertyValue {
        if allowNil && rng.chance(0.06) { return .null }
        let decimalWeight = decimalConstantWeight()
        switch kind {
        case .int16, .int32, .int64:
            return rng.weighted([
                (10, .integer(rng.pick(FuzzPools.integerConstants))),
                (1, .integer(rng.pick(FuzzPools.big64))),
                (2, .double(rng.pick(FuzzPools.doubleConstants(exclusions)))),
                (1, .boolean(rng.chance(0.5))),
                (decimalWeight, .decimal(rng.pick(FuzzPools.decimals))),
            ])
        case .double, .float:
            return rng.weighted([
                (10, .double(rng.pick(FuzzPools.doubleConstants(exclusions)))),
                (3, .integer(rng.pick(FuzzPools.integerConstants))),
                (1, .boolean(rng.chance(0.5))),
                (decimalWeight, .decimal(rng.pick(FuzzPools.decimals))),
            ])
        case .decimal:
            return rng.weighted([
                (6, .decimal(rng.pick(FuzzPools.decimals))),
                (3, .integer(rng.pick(FuzzPools.integerConstants))),
                (3, .double(rng.pick(FuzzPools.doubleConstants(exclusions).filter(\.isFinite)))),
            ])
        case .bool:
            return rng.weighted([(6, .boolean(rng.chance(0.5))), (2, .integer(rng.pick([0, 1, 2, -1]))), (1, .double(0.5))])
        case .string: return .string(rng.pick(FuzzPools.strings(exclusions)))
        case .date: return .date(rng.pick(FuzzPools.dates))
        case .data: return .data(rng.pick(FuzzPools.datas))
        case .uuid: return .uuid(rng.pick(FuzzPools.uuids))
        case .url: return .uri(rng.pick(FuzzPools.urls))
        }
    }

    /// Decimal constants for a non-decimal number: fine against a column (SQLite converts the
    /// TEXT by the column's affinity), not against a computed value.
    private var computed = false
    private func decimalConstantWeight() -> Int {
        computed && exclusions.excludes(FuzzExclusions.decimalConstantVersusComputedNumber) ? 0 : 1
    }

    /// Whether key paths of these kinds may be compared, leaving out excluded pairs.
    private static func comparable(_ a: FuzzKind, _ b: FuzzKind, _ exclusions: FuzzExclusions) -> Bool {
        guard a.compatible(with: b) else { return false }
        if exclusions.excludes(FuzzExclusions.urlVersusString), a != b, a == .url || b == .url { return false }
        return true
    }

    private static let orderingOperators: [FetchPredicate.Operator] = [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo,
                                                                       .greaterThan, .greaterThanOrEqualTo]
    private static let stringOperators: [FetchPredicate.Operator] = [.beginsWith, .endsWith, .contains, .like, .matches]

    private mutating func options(for kind: FuzzKind) -> FetchPredicate.Options {
        guard kind == .string else { return [] }
        return rng.weighted([(5, []), (2, [.caseInsensitive]), (2, [.diacriticInsensitive]),
                             (2, [.caseInsensitive, .diacriticInsensitive])])
    }

    /// An operator valid for the kind, and a right-hand side for it.
    private mutating func operatorAndValue(for kind: FuzzKind) -> (FetchPredicate.Operator, FetchExpression.Node) {
        var choices: [(Int, Int)] = [(12, 0), (3, 1), (3, 2)]
        if kind == .string { choices.append((12, 3)) }
        switch rng.weighted(choices) {
        case 0:
            return (rng.pick(Self.orderingOperators), .constant(constant(for: kind)))
        case 1:
            let bounds = (0..<2).map { _ in FetchExpression.Node.constant(constant(for: kind, allowNil: rng.chance(0.2))) }
            return (.between, .list(bounds))
        case 2:
            let values = (0..<rng.weighted([(1, 0), (3, 1), (5, 2), (3, 3), (1, 5)])).map { _ in
                FetchExpression.Node.constant(constant(for: kind, allowNil: rng.chance(0.3)))
            }
            return (.in, .list(values))
        default:
            let op = rng.pick(Self.stringOperators)
            let pattern: String = switch op {
            case .like: rng.chance(0.8) ? rng.pick(FuzzPools.likePatterns) : rng.pick(FuzzPools.strings(exclusions))
            case .matches: rng.pick(FuzzPools.regexes)
            default: rng.chance(0.8) ? rng.pick(FuzzPools.parts(exclusions)) : rng.pick(FuzzPools.strings(exclusions))
            }
            return (op, .constant(rng.chance(0.03) ? .null : .string(pattern)))
        }
    }

    private func comparison(_ lhs: FetchExpression.Node, _ op: FetchPredicate.Operator, _ rhs: FetchExpression.Node,
                            modifier: FetchPredicate.Modifier = .direct, options: FetchPredicate.Options = []) -> FetchPredicate.Node {
        .comparison(FetchPredicate.Comparison(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: options))
    }

    // MARK: Leaves

    /// `attribute op constant`, the attribute possibly through to-ones.
    private mutating func scalarComparison(_ scope: FuzzScope, hops: Int = 1) -> FetchPredicate.Node {
        guard let path = scalarPath(scope, hops: hops) else { return .constant(true) }
        let (op, rhs) = operatorAndValue(for: path.kind)
        return comparison(path.node, op, rhs, options: options(for: path.kind))
    }

    /// `constant op attribute`, which the resolver turns around.
    private mutating func flippedComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        if rng.chance(0.3), let (steps, entity) = collectionSteps(scope), let attribute = entity.attributes.randomElement(using: &rng) {
            // 3 < items.amount means ANY items.amount > 3
            let path = FetchExpression.Node.keyPath(root: scope.root, components: steps + [attribute.name])
            return comparison(.constant(constant(for: attribute.kind)), rng.pick(Self.orderingOperators), path,
                              options: options(for: attribute.kind))
        }
        guard let path = scalarPath(scope) else { return .constant(true) }
        let op = rng.pick(Self.orderingOperators)
        return comparison(.constant(constant(for: path.kind)), op, path.node, options: options(for: path.kind))
    }

    /// `attribute == nil` and friends.
    private mutating func nilComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        guard let path = scalarPath(scope) else { return .constant(true) }
        let op = rng.weighted([(5, FetchPredicate.Operator.equalTo), (5, .notEqualTo), (1, .lessThan), (1, .greaterThanOrEqualTo)])
        return comparison(path.node, op, .constant(.null))
    }

    /// `ANY/ALL/NONE items.amount op constant`, or without modifier (meaning ANY).
    private mutating func collectionComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        guard var (steps, entity) = collectionSteps(scope) else { return .constant(true) }
        let modifier: FetchPredicate.Modifier = rng.pick([.direct, .any, .all, .none])
        if rng.chance(0.06), let toOne = entity.toOnes.randomElement(using: &rng), let objects = indexes[toOne.target], !objects.isEmpty {
            // ANY owner.things.owner == object, ALL items.thing != nil
            let path = FetchExpression.Node.keyPath(root: scope.root, components: steps + [toOne.name])
            let object = FetchExpression.Node.variable(FuzzDataset.key(toOne.target, rng.pick(objects)))
            switch rng.int(0...2) {
            case 0: return comparison(path, rng.pick([.equalTo, .notEqualTo]), object, modifier: modifier)
            case 1: return comparison(path, rng.pick([.equalTo, .notEqualTo]), .constant(.null), modifier: modifier)
            default:
                if exclusions.excludes(FuzzExclusions.negatedObjectIn) { return comparison(path, .equalTo, object, modifier: modifier) }
                return comparison(path, .in, .list([object, .constant(.null)].shuffled(using: &rng)), modifier: modifier)
            }
        }
        if entity.attributes.isEmpty || rng.chance(0.08), let objects = indexes[entity.name], !objects.isEmpty {
            // ANY tags == object
            let op = rng.pick([FetchPredicate.Operator.equalTo, .notEqualTo])
            return comparison(.keyPath(root: scope.root, components: steps), op, .variable(FuzzDataset.key(entity.name, rng.pick(objects))),
                              modifier: modifier)
        }
        if rng.chance(0.15), let toOne = entity.toOnes.randomElement(using: &rng) {
            // ANY items.thing.owner.name == "a": LEFT JOINs inside the EXISTS subquery.
            steps.append(toOne.name)
            entity = FuzzSchema.entity(toOne.target)
        }
        let attribute = rng.pick(entity.attributes)
        let path = FetchExpression.Node.keyPath(root: scope.root, components: steps + [attribute.name])
        if rng.chance(0.15), let other = scalarPath(scope.around(&rng), hops: 1,
                                                    filter: { [exclusions] in Self.comparable($0.kind, attribute.kind, exclusions) }) {
            // ANY items.amount > i16
            let op = attribute.kind == .string && rng.chance(0.3) ? rng.pick(Self.stringOperators) : rng.pick(Self.orderingOperators)
            return comparison(path, op, other.node, modifier: modifier, options: options(for: attribute.kind))
        }
        if modifier == .direct, rng.chance(0.1) {
            // items.label CONTAINS "a" means ANY items.label == "a".
            return comparison(path, .contains, .constant(constant(for: attribute.kind)), options: options(for: attribute.kind))
        }
        let (op, rhs) = operatorAndValue(for: attribute.kind)
        return comparison(path, op, rhs, modifier: modifier, options: options(for: attribute.kind))
    }

    /// `"a" IN items.label`, `$tag IN tags`.
    private mutating func constantInCollection(_ scope: FuzzScope) -> FetchPredicate.Node {
        guard let (steps, entity) = collectionSteps(scope) else { return .constant(true) }
        if rng.chance(0.4), let objects = indexes[entity.name], !objects.isEmpty {
            let object = FetchExpression.Node.variable(FuzzDataset.key(entity.name, rng.pick(objects)))
            return rng.chance(0.5)
                ? comparison(object, .in, .keyPath(root: scope.root, components: steps))
                : comparison(.keyPath(root: scope.root, components: steps), .contains, object)
        }
        let attribute = rng.pick(entity.attributes)
        return comparison(.constant(constant(for: attribute.kind)), .in, .keyPath(root: scope.root, components: steps + [attribute.name]),
                          options: options(for: attribute.kind))
    }

    /// `items.@count`, `items.@sum.amount`, `tags.@max.name` ... compared with a constant or a key path.
    private mutating func aggregateComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        guard let (steps, entity) = collectionSteps(scope) else { return .constant(true) }
        var function = rng.weighted([(4, "@count"), (3, "@sum"), (2, "@avg"), (2, "@min"), (2, "@max")])
        var components = steps + [function]
        var kind = FuzzKind.int64
        if function != "@count" {
            let candidates = entity.attributes.filter { attribute in
                if function == "@sum" || function == "@avg" {
                    // Decimal sums and averages are evaluated in memory by design.
                    if function == "@sum", attribute.kind == .int64, exclusions.excludes(FuzzExclusions.integerSumOverflow) { return false }
                    return attribute.kind.isNumeric && attribute.kind != .decimal
                }
                if attribute.kind == .decimal, exclusions.excludes(FuzzExclusions.decimalMinMax) { return false }
                return attribute.kind.isOrderedForAggregates
            }
            if let attribute = candidates.randomElement(using: &rng) {
                components.append(attribute.name)
                kind = function == "@avg" ? .double : attribute.kind
            } else {
                function = "@count"
                components = steps + [function]
            }
        }
        let path = FetchExpression.Node.keyPath(root: scope.root, components: components)
        if rng.chance(0.15), let other = scalarPath(scope.around(&rng), hops: 1, filter: { [exclusions] in Self.comparable($0.kind, kind, exclusions) }) {
            return comparison(path, rng.pick(Self.orderingOperators), other.node)
        }
        computed = kind != .decimal
        defer { computed = false }
        if function == "@count" {
            let (op, rhs) = rng.chance(0.8)
                ? (rng.pick(Self.orderingOperators), FetchExpression.Node.constant(.integer(rng.pick([0, 1, 2, 3, 4]))))
                : operatorAndValue(for: .int64)
            return comparison(path, op, rhs)
        }
        let (op, rhs) = operatorAndValue(for: kind)
        return comparison(path, op, rhs, options: options(for: kind))
    }

    /// `SUBQUERY(items, $v, ...).@count op n`.
    private mutating func subqueryComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        guard let (steps, entity) = collectionSteps(scope), steps.count <= 2 else { return .constant(true) }
        // The collection must end with a to-many: drop a trailing to-one.
        var collection = steps
        var element = entity
        var reached = scope.entity
        var lastToMany: Int?
        for (position, name) in collection.enumerated() {
            let relationship = reached.relationships.first { $0.name == name }!
            if relationship.toMany { lastToMany = position }
            reached = FuzzSchema.entity(relationship.target)
        }
        guard let lastToMany else { return .constant(true) }
        collection = Array(collection[...lastToMany])
        reached = scope.entity
        for name in collection { reached = FuzzSchema.entity(reached.relationships.first { $0.name == name }!.target) }
        element = reached
        variableCount += 1
        let variable = "v\(variableCount)"
        let inner = FuzzScope(root: .variable(variable), entity: element, enclosing: scope.enclosing + [(scope.root, scope.entity)],
                              depth: scope.depth + 1)
        let condition = predicate(inner, depth: rng.int(0...2))
        let count = FetchExpression.Node.subqueryCount(collection: .keyPath(root: scope.root, components: collection),
                                                        variable: variable, predicate: condition)
        let op = rng.pick(Self.orderingOperators)
        if rng.chance(0.1), let other = scalarPath(scope, hops: 0, filter: { $0.kind.isNumeric }) {
            return comparison(count, op, other.node)
        }
        if rng.chance(0.1) {
            computed = true
            defer { computed = false }
            let (op, rhs) = operatorAndValue(for: .int64)
            return comparison(count, op, rhs)
        }
        return comparison(count, op, .constant(.integer(rng.pick([0, 1, 2, 3]))))
    }

    /// `SELF == object`, `owner == object`, `owner == nil`, `SELF IN {objects}`.
    private mutating func objectComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        var targets: [(FetchExpression.Node, String)] = [(selfNode(scope), scope.entity.name)]
        for toOne in scope.entity.toOnes {
            targets.append((.keyPath(root: scope.root, components: [toOne.name]), toOne.target))
            for next in FuzzSchema.entity(toOne.target).toOnes {
                targets.append((.keyPath(root: scope.root, components: [toOne.name, next.name]), next.target))
            }
        }
        let (lhs, entity) = rng.pick(targets)
        guard let objects = indexes[entity], !objects.isEmpty else { return .constant(true) }
        func object() -> FetchExpression.Node { .variable(FuzzDataset.key(entity, rng.pick(objects))) }
        if rng.chance(0.15) {
            // Another object key path of the same entity: owner == owner, $v.thing == SELF.
            let others = targets.filter { $0.1 == entity }.map(\.0) + scope.enclosing.filter { $0.entity.name == entity }.map {
                FetchExpression.Node.keyPath(root: $0.root, components: [])
            }
            if !exclusions.excludes(FuzzExclusions.objectKeyPaths), let other = others.randomElement(using: &rng) {
                return comparison(lhs, rng.pick([.equalTo, .notEqualTo]), other)
            }
        }
        if rng.chance(0.1) { return comparison(object(), rng.pick([.equalTo, .notEqualTo]), lhs) }
        switch rng.int(0...3) {
        case 0: return comparison(lhs, .equalTo, object())
        case 1: return comparison(lhs, .notEqualTo, object())
        case 2:
            let list = (0..<rng.int(0...3)).map { _ in rng.chance(0.2) ? FetchExpression.Node.constant(.null) : object() }
            if exclusions.excludes(FuzzExclusions.negatedObjectIn), lhs != selfNode(scope) {
                return comparison(lhs, .equalTo, list.first ?? .constant(.null))
            }
            return comparison(lhs, .in, .list(list))
        default:
            return comparison(lhs, rng.pick([.equalTo, .notEqualTo]), .constant(.null))
        }
    }

    private func selfNode(_ scope: FuzzScope) -> FetchExpression.Node {
        if case .variable = scope.root { return .keyPath(root: scope.root, components: []) }
        return .evaluatedObject
    }

    /// `int16 < int32`, `str ==[c] owner.name`, `url == str`; in a subquery, `$v.amount > i16`.
    private mutating func keyPathComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        guard let lhs = scalarPath(scope, hops: 1) else { return .constant(true) }
        let rhsScope = scope.around(&rng)
        guard let rhs = scalarPath(rhsScope, hops: 1, filter: { [exclusions] in Self.comparable($0.kind, lhs.kind, exclusions) }) else { return .constant(true) }
        var operators = Self.orderingOperators
        if lhs.kind == .string { operators += Self.stringOperators }
        let op = rng.pick(operators)
        return comparison(lhs.node, op, rhs.node, options: options(for: lhs.kind))
    }
}

// MARK: - Edge shapes

/// Shapes the ordinary trees rarely reach, where SQL and memory once disagreed (kept apart from
/// the leaves above): NaN arguments, ANY/ALL/NONE on a single value, comparisons of two
/// constants with `[c]`/`[d]`, NUL characters in constants, and, rarely, predicates about a
/// thousand comparisons wide or a dozen levels deep.
extension PredicateGenerator {
    fileprivate mutating func edgeComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        switch rng.weighted([(8, 0), (6, 1), (1, 2), (1, 3)]) {
        case 0: return nanComparison(scope)
        case 1: return constantComparison()
        case 2: return modifierOnSingleValue(scope)
        default: return nulConstantComparison(scope)
        }
    }

    /// A NaN against an attribute, a collection's elements, an aggregate or a count, in an
    /// ordering, a BETWEEN or an IN list: only `!=` is true of it.
    private mutating func nanComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        var nan: PropertyValue = rng.pick([.double(.nan), .double(-.nan), .decimal(.nan)])
        var lhs: FetchExpression.Node
        var modifier = FetchPredicate.Modifier.direct
        switch rng.int(0...3) {
        case 0:
            guard let path = scalarPath(scope, filter: { $0.kind.isNumeric || $0.kind == .date }) else { return .constant(true) }
            if path.kind == .date { nan = .date(Date(timeIntervalSinceReferenceDate: .nan)) }
            lhs = path.node
        case 1:
            guard let (steps, entity) = collectionSteps(scope),
                  let attribute = entity.attributes.filter(\.kind.isNumeric).randomElement(using: &rng) else { return .constant(true) }
            lhs = .keyPath(root: scope.root, components: steps + [attribute.name])
            modifier = rng.pick([.direct, .any, .all, .none])
        case 2:
            guard let (steps, entity) = collectionSteps(scope) else { return .constant(true) }
            let numeric = entity.attributes.filter { $0.kind.isNumeric && $0.kind != .decimal }
            lhs = .keyPath(root: scope.root, components: steps + (numeric.isEmpty || rng.chance(0.3) ? ["@count"]
                : [rng.pick(["@sum", "@avg", "@min", "@max"]), rng.pick(numeric).name]))
        default:
            guard let (steps, _) = collectionSteps(scope), steps.count == 1 else { return .constant(true) }
            variableCount += 1
            lhs = .subqueryCount(collection: .keyPath(root: scope.root, components: steps), variable: "n\(variableCount)",
                                 predicate: .constant(rng.chance(0.7)))
        }
        let other = FetchExpression.Node.constant(.integer(rng.pick([-1, 0, 1, 3])))
        switch rng.weighted([(8, 0), (2, 1), (2, 2)]) {
        case 0: return comparison(lhs, rng.pick(Self.orderingOperators), .constant(nan), modifier: modifier)
        case 1: return comparison(lhs, .between, .list([.constant(nan), other].shuffled(using: &rng)), modifier: modifier)
        default: return comparison(lhs, .in, .list([.constant(nan), other, .constant(.null)].shuffled(using: &rng)), modifier: modifier)
        }
    }

    /// Two constants, or a list of constants under ANY/ALL/NONE, with any operator and options
    /// their kind allows (`nil ==[c] 5`, `"a" BEGINSWITH[cd] "A"`, `ALL {1, 2} > 0`).
    private mutating func constantComparison() -> FetchPredicate.Node {
        let kind = rng.pick([FuzzKind.int64, .double, .decimal, .string, .string, .bool, .date, .data, .uuid])
        let (op, rhs) = operatorAndValue(for: kind)
        if rng.chance(0.25) {
            let list = (0..<rng.int(0...3)).map { _ in FetchExpression.Node.constant(constant(for: kind)) }
            return comparison(.list(list), op == .in || op == .between ? .equalTo : op, op == .in || op == .between ? .constant(constant(for: kind)) : rhs,
                              modifier: rng.pick([.any, .all, .none]), options: options(for: kind))
        }
        let lhs = rng.chance(0.25) ? PropertyValue.null : constant(for: kind)
        let options = lhs.isNull ? rng.pick([[], .caseInsensitive, [.caseInsensitive, .diacriticInsensitive]]) : options(for: kind)
        return comparison(.constant(lhs), op, rhs, options: options)
    }

    /// ANY/ALL/NONE on a constant or a `SUBQUERY(…).@count`: one value, not a collection, which
    /// every side must refuse.
    private mutating func modifierOnSingleValue(_ scope: FuzzScope) -> FetchPredicate.Node {
        let modifier: FetchPredicate.Modifier = rng.pick([.any, .all, .none])
        if rng.chance(0.5), let (steps, _) = collectionSteps(scope), steps.count == 1 {
            variableCount += 1
            let count = FetchExpression.Node.subqueryCount(collection: .keyPath(root: scope.root, components: steps),
                                                           variable: "m\(variableCount)", predicate: .constant(true))
            return comparison(count, rng.pick(Self.orderingOperators), .constant(.integer(1)), modifier: modifier)
        }
        return comparison(.constant(constant(for: .int64)), rng.pick(Self.orderingOperators), .constant(constant(for: .int64)), modifier: modifier)
    }

    /// A string constant holding U+0000 on either side of a comparison or in a list, which
    /// every side must refuse.
    private mutating func nulConstantComparison(_ scope: FuzzScope) -> FetchPredicate.Node {
        let nul = FetchExpression.Node.constant(.string(rng.pick(["a\u{0}b", "\u{0}", "a\u{0}"])))
        let plain = FetchExpression.Node.constant(.string(rng.pick(["a", "", "b"])))
        guard let path = scalarPath(scope, filter: { $0.kind == .string }) else { return comparison(nul, .equalTo, plain) }
        switch rng.int(0...3) {
        case 0: return comparison(nul, rng.pick(Self.orderingOperators), plain)
        case 1: return comparison(nul, rng.pick(Self.orderingOperators), path.node)
        case 2: return comparison(path.node, .in, .list([plain, nul].shuffled(using: &rng)))
        default: return comparison(nul, .in, .list([plain]), options: options(for: .string))
        }
    }

    /// Rarely, a whole predicate far wider or deeper than the usual trees: an OR or AND of about
    /// a thousand comparisons (SQLite refuses an expression deeper than 1,000; equalities on one
    /// key become an IN list), or a chain of NOT, AND and OR a dozen levels deep.
    fileprivate mutating func largePredicate(_ scope: FuzzScope) -> FetchPredicate.Node? {
        guard rng.chance(0.001) else { return nil }
        if rng.chance(0.6) {
            let isOr = rng.chance(0.5)
            let key = scope.entity.attributes.filter(\.kind.isInteger).randomElement(using: &rng)
            let parts = (0..<rng.int(990...1_100)).map { _ -> FetchPredicate.Node in
                guard let key, rng.chance(0.8) else { return scalarComparison(scope) }
                let value = FetchExpression.Node.constant(rng.chance(0.02) ? .null : .integer(Int64(rng.int(-5...200))))
                return comparison(.keyPath(root: scope.root, components: [key.name]), isOr ? .equalTo : .notEqualTo, value)
            }
            return isOr ? .or(parts) : .and(parts)
        }
        var node = leaf(scope)
        for _ in 0..<rng.int(6...14) {
            switch rng.int(0...2) {
            case 0: node = .not(node)
            case 1: node = .and([leaf(scope), node].shuffled(using: &rng))
            default: node = .or([node, leaf(scope)].shuffled(using: &rng))
            }
        }
        return node
    }
}

// MARK: - Running cases

/// One dataset in both stores, with the contexts every case uses.
final class FuzzWorld {
    let dataset: FuzzDataset
    let sqlite: TestStack
    let memory: TestStack
    /// Fetches on the SQLite store: never holds changes, so fetches compile to SQL.
    let sqlContext: ManagedObjectContext
    /// In-memory evaluation of objects read from the SQLite store.
    let evalContext: ManagedObjectContext
    let memoryContext: ManagedObjectContext
    /// Object IDs by "OBJ_<entity>_<index>", per store.
    let sqliteIDs: [String: ManagedObjectID]
    let memoryIDs: [String: ManagedObjectID]
    /// Every object of each entity, in `evalContext`.
    let evalObjects: [String: [ManagedObject]]
    /// Whether both stores gave the same primary key to every object, so that ties in sort order
    /// (broken by primary key) come out the same.
    let keysAligned: Bool

    /// The store whose SQL is tested: SQLite, or PostgreSQL with the `Postgres` trait.
    let store: StoreKind

    init(_ dataset: FuzzDataset, model: ManagedObjectModel, store: StoreKind = .sqlite) throws {
        self.dataset = dataset
        self.store = store
        sqlite = try TestStack(store, model: model)
        memory = try TestStack(.inMemory, model: model)
        try dataset.insert(into: sqlite.newContext())
        try dataset.insert(into: memory.newContext())
        sqlContext = sqlite.newContext()
        evalContext = sqlite.newContext()
        memoryContext = memory.newContext()
        func objects(_ context: ManagedObjectContext) throws -> [String: [ManagedObject]] {
            try context.performAndWait {
                var result: [String: [ManagedObject]] = [:]
                for entity in FuzzSchema.order {
                    result[entity] = try context.fetch(FetchRequest<ManagedObject>(entityName: entity))
                }
                return result
            }
        }
        func ids(_ objects: [String: [ManagedObject]], _ context: ManagedObjectContext) -> [String: ManagedObjectID] {
            context.performAndWait {
                var result: [String: ManagedObjectID] = [:]
                for (entity, list) in objects {
                    for object in list { result[FuzzDataset.key(entity, FuzzWorld.index(of: object))] = object.objectID }
                }
                return result
            }
        }
        let eval = try objects(evalContext)
        let sqliteIDs = ids(eval, evalContext)
        let memoryIDs = ids(try objects(memoryContext), memoryContext)
        evalObjects = eval
        self.sqliteIDs = sqliteIDs
        self.memoryIDs = memoryIDs
        keysAligned = sqliteIDs.allSatisfy { key, id in memoryIDs[key]?.key == id.key }
    }

    static func index(of object: ManagedObject) -> Int64 {
        (object.value(forKey: "index") as? NSNumber)?.int64Value ?? -1
    }
}

/// What one case gave on each side.
struct FuzzOutcome {
    var sqlite: Result<[Int64], FuzzError>
    var evaluated: Result<[Int64], FuzzError>
    var memory: Result<[Int64], FuzzError>
    /// The SQLite store's COUNT, or nil when part of the predicate was left to memory (or the
    /// fetch failed).
    var sqliteCount: Int?
    /// Whether the SQLite store left part of the predicate to memory.
    var fellBack: Bool
    /// Whether the sort order is total (ends with the unique index) or ties break alike.
    var orderComparable: Bool
    /// Whether the store may leave constructs to memory by design (PostgreSQL's `MATCHES`,
    /// folding, sums), so that a fallback is no finding; SQLite compiles everything.
    var fallbackAllowed = false
    var storeName = "SQLite"
    /// Seconds spent on the SQL fetch, the in-memory evaluation and the in-memory store.
    var seconds: [Double] = [0, 0, 0]

    enum Mismatch: String {
        case results = "different results"
        case errors = "an error on one side only"
        case count = "COUNT differs from the fetch"
        case order = "different order"
        case fallback = "evaluated in memory instead of SQL"
    }

    var allFailed: Bool {
        if case .failure = sqlite, case .failure = evaluated, case .failure = memory { return true }
        return false
    }

    var mismatch: Mismatch? {
        switch (sqlite, evaluated, memory) {
        case (.success(let a), .success(let b), .success(let c)):
            if Set(a) != Set(b) || Set(c) != Set(b) { return .results }
            if let sqliteCount, sqliteCount != a.count { return .count }
            if a != b || (orderComparable && a != c) { return .order }
            if fellBack && !fallbackAllowed { return .fallback }
            return nil
        case (.failure, .failure, .failure):
            return nil
        default:
            return .errors
        }
    }

    func describe() -> String {
        func show(_ result: Result<[Int64], FuzzError>) -> String {
            switch result {
            case .success(let ids): "\(ids.count) \(ids)"
            case .failure(let error): "error: \(error.message)"
            }
        }
        var lines = [
            "    \(storeName) fetch:\(String(repeating: " ", count: max(1, 14 - storeName.count)))\(show(sqlite))",
            "    evaluate(with:):     \(show(evaluated))",
            "    in-memory store:     \(show(memory))",
        ]
        if case .success(let a) = sqlite, case .success(let b) = evaluated, case .success(let c) = memory {
            let (sa, sb, sc) = (Set(a), Set(b), Set(c))
            if sa != sb { lines.append("    only SQLite: \(sa.subtracting(sb).sorted()), only evaluate: \(sb.subtracting(sa).sorted())") }
            if sc != sb { lines.append("    only in-memory store: \(sc.subtracting(sb).sorted()), only evaluate: \(sb.subtracting(sc).sorted())") }
        }
        if case .success = sqlite {
            lines.append("    \(storeName) COUNT: \(sqliteCount.map(String.init) ?? "none: part of the predicate was left to memory")")
        }
        return lines.joined(separator: "\n")
    }

    /// The indexes whose membership differs between the sides.
    var differing: Set<Int64> {
        guard case .success(let a) = sqlite, case .success(let b) = evaluated, case .success(let c) = memory else { return [] }
        let (sa, sb, sc) = (Set(a), Set(b), Set(c))
        return sa.symmetricDifference(sb).union(sc.symmetricDifference(sb))
    }
}

struct FuzzError: Error {
    var message: String
}

struct FuzzCase {
    var entity: String
    var template: FetchPredicate.Node
    var sorts: [FetchSortDescriptor]
    var limit = 0
    var offset = 0

    var summary: String {
        var text = "fetch \(entity) where \(predicateFormat)\n  sorted by \(sorts.map(\.description))"
        if limit > 0 || offset > 0 { text += ", limit \(limit), offset \(offset)" }
        return text
    }

    func run(in world: FuzzWorld) -> FuzzOutcome {
        let template = FetchPredicate(node: self.template)
        let sqlitePredicate: FetchPredicate
        let memoryPredicate: FetchPredicate
        do {
            sqlitePredicate = try template.withSubstitutionVariables(world.sqliteIDs)
            memoryPredicate = try template.withSubstitutionVariables(world.memoryIDs)
        } catch {
            let failure = Result<[Int64], FuzzError>.failure(FuzzError(message: "substitution: \(error)"))
            return FuzzOutcome(sqlite: failure, evaluated: failure, memory: failure, sqliteCount: nil, fellBack: false, orderComparable: true)
        }
        let sorts = sorts
        let entityName = entity
        let limit = limit, offset = offset

        var clock = ContinuousClock.now
        var seconds: [Double] = []
        func lap() {
            let now = ContinuousClock.now
            let elapsed = now - clock
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            clock = now
        }
        // 1. SQLite, compiled to SQL.
        var fellBack = false
        var sqliteCount: Int?
        let sqlite: Result<[Int64], FuzzError> = world.sqlContext.performAndWait {
            do {
                let request = FetchRequest<ManagedObject>(entityName: entityName)
                request.predicate = sqlitePredicate
                request.sortDescriptors = sorts
                request.fetchLimit = limit
                request.fetchOffset = offset
                precondition(!world.sqlContext.hasChanges)
                let plan = try world.sqlContext.storeFetch(for: request)
                if let coordinator = world.sqlContext.persistentStoreCoordinator {
                    sqliteCount = try coordinator.count(plan)
                    fellBack = sqliteCount == nil
                }
                return .success(try world.sqlContext.fetch(request).map(FuzzWorld.index(of:)))
            } catch {
                return .failure(FuzzError(message: "\(error)"))
            }
        }

        lap()
        // 2. All objects, filtered with evaluate(with:), ordered by the context's in-memory sort.
        let evaluated: Result<[Int64], FuzzError> = world.evalContext.performAndWait {
            do {
                guard let entity = world.evalContext.managedObjectModel.compiledEntity(named: entityName) else {
                    throw FuzzError(message: "no entity \(entityName)")
                }
                try sqlitePredicate.validate(for: entity)
                let keys = try sorts.map { try $0.resolved(for: entity) }
                let matching = (world.evalObjects[entityName] ?? []).filter { sqlitePredicate.evaluate(with: $0) }
                let ordered = matching.sorted { lhs, rhs in
                    for key in keys {
                        let order = key.compare(ManagedObjectContext.sortValue(key, of: lhs), ManagedObjectContext.sortValue(key, of: rhs))
                        if order != 0 { return order < 0 }
                    }
                    return ManagedObjectContext.idPrecedes(lhs.objectID, rhs.objectID)
                }
                let window = ordered.dropFirst(offset)
                return .success((limit > 0 ? window.prefix(limit) : window).map(FuzzWorld.index(of:)))
            } catch {
                return .failure(FuzzError(message: "\(error)"))
            }
        }

        lap()
        // 3. The in-memory store; on the SQLite run only, which has the same datasets and cases:
        // the PostgreSQL run would repeat it word for word.
        let memory: Result<[Int64], FuzzError> = world.store != .sqlite ? evaluated : world.memoryContext.performAndWait {
            do {
                let request = FetchRequest<ManagedObject>(entityName: entityName)
                request.predicate = memoryPredicate
                request.sortDescriptors = sorts
                request.fetchLimit = limit
                request.fetchOffset = offset
                return .success(try world.memoryContext.fetch(request).map(FuzzWorld.index(of:)))
            } catch {
                return .failure(FuzzError(message: "\(error)"))
            }
        }
        lap()
        let total = sorts.last.map { $0.key == "index" } ?? false
        let isPostgres = world.store != .sqlite
        return FuzzOutcome(sqlite: sqlite, evaluated: evaluated, memory: memory, sqliteCount: sqliteCount,
                           fellBack: fellBack, orderComparable: total || world.keysAligned,
                           fallbackAllowed: isPostgres, storeName: isPostgres ? "PostgreSQL" : "SQLite", seconds: seconds)
    }

    var predicateFormat: String { FetchPredicate(node: template).predicateFormat }
}

// MARK: - Shrinking

enum FuzzShrinker {
    /// Simpler predicates to try in place of `node`: a child, the node without one operand, a
    /// subquery with a simpler condition, TRUEPREDICATE.
    static func candidates(_ node: FetchPredicate.Node) -> [FetchPredicate.Node] {
        switch node {
        case .constant:
            return []
        case .not(let inner):
            return [inner] + candidates(inner).map { .not($0) }
        case .and(let parts), .or(let parts):
            let rebuild: ([FetchPredicate.Node]) -> FetchPredicate.Node = { if case .and = node { .and($0) } else { .or($0) } }
            if parts.count > 16 { return chunksRemoved(parts).map(rebuild) }
            var result: [FetchPredicate.Node] = parts
            if parts.count > 1 {
                for position in parts.indices {
                    var fewer = parts
                    fewer.remove(at: position)
                    result.append(rebuild(fewer))
                }
            }
            for position in parts.indices {
                for simpler in candidates(parts[position]) {
                    var replaced = parts
                    replaced[position] = simpler
                    result.append(rebuild(replaced))
                }
            }
            return result
        case .comparison(let comparison):
            var result: [FetchPredicate.Node] = []
            if case .subqueryCount(let collection, let variable, let condition) = comparison.lhs {
                for simpler in candidates(condition) + [.constant(true)] where simpler != condition {
                    var changed = comparison
                    changed.lhs = .subqueryCount(collection: collection, variable: variable, predicate: simpler)
                    result.append(.comparison(changed))
                }
            }
            if case .list(let values) = comparison.rhs, values.count > 1, comparison.op == .in {
                for position in values.indices {
                    var changed = comparison
                    var fewer = values
                    fewer.remove(at: position)
                    changed.rhs = .list(fewer)
                    result.append(.comparison(changed))
                }
            }
            if !comparison.options.isEmpty {
                for options in [FetchPredicate.Options(), .caseInsensitive, .diacriticInsensitive] where options != comparison.options
                    && comparison.options.isSuperset(of: options) {
                    var changed = comparison
                    changed.options = options
                    result.append(.comparison(changed))
                }
            }
            return result
        }
    }

    /// A wide AND or OR without a half, a quarter, ... of its operands (trying each operand
    /// alone, or each removal of one, would take thousands of runs per step).
    private static func chunksRemoved(_ parts: [FetchPredicate.Node]) -> [[FetchPredicate.Node]] {
        var result: [[FetchPredicate.Node]] = []
        var size = parts.count / 2
        while size >= 1, result.count < 64 {
            for start in stride(from: 0, to: parts.count, by: size) where result.count < 64 {
                var fewer = parts
                fewer.removeSubrange(start..<min(start + size, parts.count))
                result.append(fewer)
            }
            size /= 2
        }
        return result
    }

    /// The `$OBJ_...` variables a predicate uses: objects the dataset shrinker must keep.
    static func variables(in node: FetchPredicate.Node) -> Set<String> {
        func expression(_ node: FetchExpression.Node) -> Set<String> {
            switch node {
            case .variable(let name): [name]
            case .list(let elements), .function(_, let elements): elements.reduce(into: []) { $0.formUnion(expression($1)) }
            case .subquery(let collection, _, let predicate), .subqueryCount(let collection, _, let predicate):
                expression(collection).union(variables(in: predicate))
            case .constant, .keyPath, .evaluatedObject: []
            }
        }
        switch node {
        case .constant: return []
        case .not(let inner): return variables(in: inner)
        case .and(let parts), .or(let parts): return parts.reduce(into: []) { $0.formUnion(variables(in: $1)) }
        case .comparison(let comparison): return expression(comparison.lhs).union(expression(comparison.rhs))
        }
    }

    /// The smallest predicate (by greedy steps) that still gives the same kind of mismatch.
    static func shrink(_ fuzzCase: FuzzCase, in world: FuzzWorld, kind: FuzzOutcome.Mismatch) -> FuzzCase {
        var current = fuzzCase
        var steps = 0
        let deadline = ContinuousClock.now + .seconds(60)
        progress: while steps < 200, ContinuousClock.now < deadline {
            steps += 1
            do {
                var simpler: [FuzzCase] = []
                if kind == .order || kind == .count, current.template != .constant(true) {
                    var all = current
                    all.template = .constant(true)
                    simpler.append(all)
                }
                if current.limit > 0 || current.offset > 0 {
                    var whole = current
                    whole.limit = 0
                    whole.offset = 0
                    simpler.append(whole)
                }
                for position in current.sorts.indices {
                    var fewer = current
                    fewer.sorts.remove(at: position)
                    simpler.append(fewer)
                    if current.sorts[position].comparison != .binary {
                        var binary = current
                        binary.sorts[position].comparison = .binary
                        simpler.append(binary)
                    }
                }
                for candidate in simpler where candidate.run(in: world).mismatch == kind {
                    current = candidate
                    continue progress
                }
            }
            for candidate in candidates(current.template) {
                var simpler = current
                simpler.template = candidate
                if simpler.run(in: world).mismatch == kind { current = simpler; continue progress }
            }
            break
        }
        return current
    }

    /// A smaller dataset on which the case still gives the same kind of mismatch.
    static func shrink(_ dataset: FuzzDataset, for fuzzCase: FuzzCase, model: ManagedObjectModel, store: StoreKind,
                       kind: FuzzOutcome.Mismatch, budget: Int = 120) -> FuzzDataset {
        let referenced = variables(in: fuzzCase.template)
        var current = dataset
        var attempts = 0
        func stillFails(_ candidate: FuzzDataset) -> Bool {
            attempts += 1
            guard let world = try? FuzzWorld(candidate, model: model, store: store) else { return false }
            return fuzzCase.run(in: world).mismatch == kind
        }
        // First halves, then single objects, of the fetched entity and then of the others.
        for entity in [fuzzCase.entity] + FuzzSchema.order.filter({ $0 != fuzzCase.entity }) {
            var chunk = max(1, current.objects(of: entity).count / 2)
            while chunk >= 1 && attempts < budget {
                let keys = current.objects(of: entity).map(\.key).filter { !referenced.contains($0) }
                var removedAny = false
                for start in stride(from: 0, to: keys.count, by: chunk) where attempts < budget {
                    let removal = Set(keys[start..<min(start + chunk, keys.count)])
                    let candidate = current.removing(removal)
                    if stillFails(candidate) {
                        current = candidate
                        removedAny = true
                    }
                }
                if !removedAny { chunk /= 2 }
            }
        }
        return current
    }
}

// MARK: - The test

/// Counters and findings shared by the workers.
final class FuzzTally: @unchecked Sendable {
    struct Finding: Sendable {
        var dataset: Int
        var fuzzCase: Int
        var kind: FuzzOutcome.Mismatch
    }

    private let lock = NSLock()
    private(set) var ran = 0, rejected = 0, fellBack = 0
    private(set) var seconds: [Double] = [0, 0, 0, 0]
    private(set) var findings: [Finding] = []
    private(set) var failures: [String] = []
    private(set) var rejections: [String] = []

    func reject(_ message: String) {
        lock.withLock { if rejections.count < 5 { rejections.append(message) } }
    }

    func add(ran: Int, rejected: Int, fellBack: Int, seconds: [Double], findings: [Finding]) {
        lock.withLock {
            self.ran += ran
            self.rejected += rejected
            self.fellBack += fellBack
            for part in self.seconds.indices { self.seconds[part] += seconds[part] }
            self.findings += findings
        }
    }

    func fail(_ message: String) {
        lock.withLock { failures.append(message) }
    }
}

@Suite struct PredicateDifferentialTests {
    struct Configuration: Sendable {
        var seed: UInt64 = 0x0CD_F022
        var cases = 10_000
        var perDataset = 100
        var only: (dataset: Int, fuzzCase: Int)?
        var maxReports = 12
        var shrinks = true
        var workers = min(2, max(1, ProcessInfo.processInfo.activeProcessorCount))
        var store = StoreKind.sqlite

        var datasets: Int { (cases + perDataset - 1) / perDataset }
        var seedText: String { "0x" + String(seed, radix: 16) }

        static func fromEnvironment() -> Configuration {
            let environment = ProcessInfo.processInfo.environment
            var configuration = Configuration()
            func number(_ name: String) -> UInt64? {
                guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
                if text.lowercased().hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
                return UInt64(text)
            }
            if let seed = number("OCD_FUZZ_SEED") { configuration.seed = seed }
            if let cases = number("OCD_FUZZ_CASES") { configuration.cases = Int(cases) }
            if let perDataset = number("OCD_FUZZ_PER_DATASET") { configuration.perDataset = max(1, Int(perDataset)) }
            if let reports = number("OCD_FUZZ_MAX_REPORTS") { configuration.maxReports = Int(reports) }
            if let workers = number("OCD_FUZZ_WORKERS") { configuration.workers = max(1, Int(workers)) }
            if environment["OCD_FUZZ_NO_SHRINK"] != nil { configuration.shrinks = false }
            if let only = environment["OCD_FUZZ_ONLY"]?.split(separator: ":"), only.count == 2,
               let dataset = Int(only[0]), let fuzzCase = Int(only[1]) {
                configuration.only = (dataset, fuzzCase)
            }
            return configuration
        }

        func datasetSeed(_ number: Int) -> UInt64 { PDRandom.derive(seed, UInt64(number)) }

        func caseCount(in dataset: Int) -> Int { min(perDataset, cases - dataset * perDataset) }
    }

    static func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: [PDThing.self, PDOwner.self, PDItem.self, PDTag.self])
    }

    static func dataset(_ number: Int, _ configuration: Configuration, _ exclusions: FuzzExclusions) -> FuzzDataset {
        var rng = PDRandom(seed: configuration.datasetSeed(number))
        return FuzzDataset.generate(&rng, exclusions)
    }

    /// The case `caseNumber` of a dataset: everything follows from the seeds.
    static func makeCase(_ caseNumber: Int, dataset number: Int, world: FuzzWorld, configuration: Configuration,
                         exclusions: FuzzExclusions) -> FuzzCase {
        let indexes = Dictionary(grouping: world.dataset.objects, by: \.entity).mapValues { $0.map(\.index) }
        var generator = PredicateGenerator(seed: PDRandom.derive(configuration.datasetSeed(number), UInt64(caseNumber)),
                                           exclusions: exclusions, indexes: indexes)
        let entity = generator.rng.weighted([(14, FuzzSchema.thing), (2, FuzzSchema.item), (2, FuzzSchema.tag), (1, FuzzSchema.owner)])
        let template = generator.predicate(for: entity)
        var sorts = generator.sortDescriptors(for: entity)
        var limit = 0, offset = 0
        if !world.keysAligned || generator.rng.chance(0.5) {
            sorts.append(FetchSortDescriptor(key: "index", ascending: generator.rng.chance(0.5)))
            if generator.rng.chance(0.1) {
                limit = generator.rng.pick([0, 1, 3, 10])
                offset = generator.rng.pick([0, 0, 2, 5])
            }
        }
        return FuzzCase(entity: entity.name, template: template, sorts: sorts, limit: limit, offset: offset)
    }

    /// Runs the datasets of one worker.
    static func work(_ worker: Int, _ configuration: Configuration, _ exclusions: FuzzExclusions, _ tally: FuzzTally) {
        let model: ManagedObjectModel
        do { model = try makeModel() } catch {
            tally.fail("cannot build the model: \(error)")
            return
        }
        for number in stride(from: worker, to: configuration.datasets, by: configuration.workers) {
            if let only = configuration.only, only.dataset != number { continue }
            let setupStart = Date()
            let world: FuzzWorld
            do { world = try FuzzWorld(dataset(number, configuration, exclusions), model: model, store: configuration.store) } catch {
                tally.fail("dataset \(number): cannot set up the stores: \(error)")
                continue
            }
            var seconds = [Date().timeIntervalSince(setupStart), 0, 0, 0]
            var ran = 0, rejected = 0, fellBack = 0
            var findings: [FuzzTally.Finding] = []
            for caseNumber in 0..<configuration.caseCount(in: number) {
                if let only = configuration.only, only.fuzzCase != caseNumber { continue }
                let fuzzCase = makeCase(caseNumber, dataset: number, world: world, configuration: configuration, exclusions: exclusions)
                let outcome = fuzzCase.run(in: world)
                for part in 0..<3 { seconds[part + 1] += outcome.seconds[part] }
                ran += 1
                if outcome.allFailed {
                    rejected += 1
                    tally.reject("\(fuzzCase.predicateFormat.prefix(600)): \(outcome.describe())")
                    if configuration.only != nil { print("rejected by every side: \(fuzzCase.predicateFormat)\n\(outcome.describe())") }
                    continue
                }
                if outcome.fellBack { fellBack += 1 }
                if let kind = outcome.mismatch { findings.append(.init(dataset: number, fuzzCase: caseNumber, kind: kind)) }
            }
            tally.add(ran: ran, rejected: rejected, fellBack: fellBack, seconds: seconds, findings: findings)
        }
    }

    /// The full report of one finding: the case, its results, and shrunk versions.
    static func report(_ finding: FuzzTally.Finding, _ configuration: Configuration, _ exclusions: FuzzExclusions,
                       shrinkData: Bool, seen: inout Set<String>) throws -> String {
        let model = try makeModel()
        let dataset = dataset(finding.dataset, configuration, exclusions)
        let world = try FuzzWorld(dataset, model: model, store: configuration.store)
        let fuzzCase = makeCase(finding.fuzzCase, dataset: finding.dataset, world: world, configuration: configuration, exclusions: exclusions)
        let outcome = fuzzCase.run(in: world)
        var report = """
            ---- MISMATCH (\(finding.kind.rawValue)) OCD_FUZZ_SEED=\(configuration.seedText) OCD_FUZZ_ONLY=\(finding.dataset):\(finding.fuzzCase)
              \(fuzzCase.summary)
            \(outcome.describe())

            """
        guard configuration.shrinks else { return report }
        let small = FuzzShrinker.shrink(fuzzCase, in: world, kind: finding.kind)
        let signature = finding.kind == .order ? "\(finding.kind) \(small.summary)" : "\(finding.kind) \(small.predicateFormat)"
        guard seen.insert(signature).inserted else {
            return "---- MISMATCH (\(finding.kind.rawValue)) OCD_FUZZ_ONLY=\(finding.dataset):\(finding.fuzzCase) shrinks to an earlier report's case: \(small.summary)\n"
        }
        let smallOutcome = small.run(in: world)
        report += """
              shrunk: \(small.summary)
            \(smallOutcome.describe())

            """
        if shrinkData {
            let smallData = FuzzShrinker.shrink(dataset, for: small, model: model, store: configuration.store, kind: finding.kind)
            let smallWorld = try FuzzWorld(smallData, model: model, store: configuration.store)
            report += "  on the dataset shrunk to \(smallData.objects.count) of \(dataset.objects.count) objects:\n"
            report += smallData.describe() + "\n" + small.run(in: smallWorld).describe() + "\n"
        } else {
            let keys = Set(smallOutcome.differing.map { FuzzDataset.key(fuzzCase.entity, $0) })
            report += "  differing objects:\n" + dataset.describe(keys) + "\n"
        }
        return report
    }

    @Test func predicatesAgreeBetweenSQLiteAndMemory() throws {
        try Self.run(Configuration.fromEnvironment())
    }

    #if Postgres
    /// The same cases on the PostgreSQL store: its SQL must give memory's answers. What it leaves
    /// to memory by design (Docs/PostgresStore.md, "Predicates") is counted, not a finding. The
    /// first 5,000 unless OCD_POSTGRES_FUZZ_CASES (or OCD_FUZZ_CASES) says otherwise: each case
    /// is a round trip to the server, and 5,000 took about 120 CPU seconds of CI's 30 minutes,
    /// which runs 2,000 (and 5,000 of the SQLite run's 10,000).
    @Test func predicatesAgreeBetweenPostgreSQLAndMemory() throws {
        var configuration = Configuration.fromEnvironment()
        configuration.store = .postgres
        let environment = ProcessInfo.processInfo.environment
        if let cases = environment["OCD_POSTGRES_FUZZ_CASES"].flatMap(Int.init) {
            configuration.cases = cases
        } else if environment["OCD_FUZZ_CASES"] == nil {
            configuration.cases = 5_000
        }
        try Self.run(configuration)
    }
    #endif

    static func run(_ configuration: Configuration) throws {
        let exclusions = FuzzExclusions.current()
        let start = Date()
        print("PredicateDifferentialTests (\(configuration.store)): OCD_FUZZ_SEED=\(configuration.seedText) OCD_FUZZ_CASES=\(configuration.cases) per dataset: \(configuration.perDataset), workers: \(configuration.workers), excluded: \(exclusions.names.sorted())")
        let tally = FuzzTally()
        DispatchQueue.concurrentPerform(iterations: configuration.workers) { worker in
            Self.work(worker, configuration, exclusions, tally)
        }
        for failure in tally.failures { Issue.record(Comment(rawValue: failure)) }
        let findings = tally.findings.sorted { ($0.dataset, $0.fuzzCase) < ($1.dataset, $1.fuzzCase) }
        let fuzzSeconds = Date().timeIntervalSince(start)

        var seen: Set<String> = []
        for (position, finding) in findings.prefix(configuration.maxReports).enumerated() {
            print(try Self.report(finding, configuration, exclusions, shrinkData: position < 4, seen: &seen))
        }

        var kinds: [String: Int] = [:]
        for finding in findings { kinds[finding.kind.rawValue, default: 0] += 1 }
        let summary = kinds.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let seconds = tally.seconds.map { String(format: "%.1f", $0) }
        print("""
            PredicateDifferentialTests (\(configuration.store)): \(tally.ran) cases on \(configuration.datasets) datasets in \(String(format: "%.1f", fuzzSeconds)) s \
            (CPU seconds: setup \(seconds[0]), \(configuration.store) \(seconds[1]), evaluate(with:) \(seconds[2]), in-memory store \(seconds[3])); \
            rejected by every side: \(tally.rejected); fell back to memory: \(tally.fellBack); mismatches: \(summary)
            """)
        #expect(findings.isEmpty, "predicate mismatches: \(summary); OCD_FUZZ_SEED=\(configuration.seedText); see the printed reports")
        for rejection in tally.rejections { print("rejected by every side: \(rejection)") }
        #expect(tally.rejected * 20 < max(tally.ran, 1), "the generator made \(tally.rejected) of \(tally.ran) predicates that every side rejects")
    }
}
