import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

// The predicate printer: NSPredicate's look for each construct, and the round trip
// parse(print(tree)) == tree over a table of format strings, thousands of random trees and
// thousands of random (mostly malformed) strings, which must never crash the parser.

private typealias T = PredicateTrees

/// A tree and exactly how it prints.
struct PrintCase: Sendable, CustomTestStringConvertible {
    let tree: FetchPredicate.Node
    let expected: String

    init(_ tree: FetchPredicate.Node, _ expected: String) {
        self.tree = tree
        self.expected = expected
    }

    var testDescription: String { expected }
}

@Suite struct PredicatePrinterTests {
    static let printCases: [PrintCase] = [
        PrintCase(T.cmp(T.key("wins"), .greaterThan, T.int(3)), "wins > 3"),
        PrintCase(T.cmp(T.key("teamName"), .equalTo, T.string("Brazil")), #"teamName == "Brazil""#),
        PrintCase(T.cmp(T.key("name"), .beginsWith, T.string("a"), .direct, [.caseInsensitive, .diacriticInsensitive]),
                  #"name BEGINSWITH[cd] "a""#),
        PrintCase(T.cmp(T.key("name"), .like, T.string("a*"), .direct, .caseInsensitive), #"name LIKE[c] "a*""#),
        PrintCase(T.cmp(T.key("name"), .endsWith, T.string("z"), .direct, .diacriticInsensitive), #"name ENDSWITH[d] "z""#),
        PrintCase(T.cmp(T.key("players.name"), .equalTo, T.string("x"), .any), #"ANY players.name == "x""#),
        PrintCase(T.cmp(T.key("players.number"), .greaterThan, T.int(9), .none), "NONE players.number > 9"),
        PrintCase(T.cmp(T.key("players.number"), .lessThan, T.int(9), .all), "ALL players.number < 9"),
        PrintCase(T.cmp(T.key("wins"), .between, .list([T.int(1), T.int(5)])), "wins BETWEEN {1, 5}"),
        PrintCase(T.cmp(T.key("zone"), .in, .list([T.string("A"), T.string("B")])), #"zone IN {"A", "B"}"#),
        PrintCase(T.cmp(T.key("name"), .contains, T.string("o")), #"name CONTAINS "o""#),
        PrintCase(T.cmp(T.key("name"), .matches, T.string("a.*")), #"name MATCHES "a.*""#),
        PrintCase(T.cmp(T.key("a"), .notEqualTo, T.int(1)), "a != 1"),
        PrintCase(T.cmp(T.key("a"), .lessThanOrEqualTo, T.int(1)), "a <= 1"),
        PrintCase(T.cmp(T.key("a"), .greaterThanOrEqualTo, T.int(1)), "a >= 1"),
        PrintCase(T.cmp(T.int(3), .lessThan, T.key("wins")), "3 < wins"),
        PrintCase(.constant(true), "TRUEPREDICATE"),
        PrintCase(.constant(false), "FALSEPREDICATE"),
        PrintCase(.and([T.eq("a", 1), .or([T.eq("b", 2), T.eq("c", 3)])]), "a == 1 AND (b == 2 OR c == 3)"),
        PrintCase(.or([.and([T.eq("a", 1), T.eq("b", 2)]), T.eq("c", 3)]), "(a == 1 AND b == 2) OR c == 3"),
        PrintCase(.and([.and([T.eq("a", 1), T.eq("b", 2)]), T.eq("c", 3)]), "(a == 1 AND b == 2) AND c == 3"),
        PrintCase(.or([T.eq("a", 1), .or([T.eq("b", 2), T.eq("c", 3)])]), "a == 1 OR (b == 2 OR c == 3)"),
        PrintCase(.not(T.eq("a", 1)), "NOT a == 1"),
        PrintCase(.not(.and([T.eq("a", 1), T.eq("b", 2)])), "NOT (a == 1 AND b == 2)"),
        PrintCase(.not(.not(T.eq("a", 1))), "NOT (NOT a == 1)"),
        PrintCase(.not(.constant(true)), "NOT TRUEPREDICATE"),
        PrintCase(.and([.not(T.eq("a", 1)), T.eq("b", 2)]), "(NOT a == 1) AND b == 2"),
        // Degenerate compounds print as what they mean (they cannot come back as the same tree).
        PrintCase(.and([]), "TRUEPREDICATE"),
        PrintCase(.or([]), "FALSEPREDICATE"),
        PrintCase(.and([.or([T.eq("a", 1)]), .and([.or([T.eq("b", 2), T.eq("c", 3)])])]), "a == 1 AND (b == 2 OR c == 3)"),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.double(1)), "x == 1"),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.double(-0.5)), "x == -0.5"),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.double(1e16)), "x == 1e+16"),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.double(.infinity)), #"x == CAST("inf", "NSNumber")"#),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.int(.min)), "x == -9223372036854775808"),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.bool(true)), "x == 1"),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.bool(false)), "x == 0"),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.null), "x == nil"),
        PrintCase(T.cmp(T.key("x"), .equalTo, .constant(.date(Date(timeIntervalSinceReferenceDate: 721_692_000.125)))),
                  #"x == CAST(721692000.125000, "NSDate")"#),
        PrintCase(T.cmp(T.key("x"), .equalTo, .constant(.date(Date(timeIntervalSinceReferenceDate: -60)))), #"x == CAST(-60.000000, "NSDate")"#),
        PrintCase(T.cmp(T.key("x"), .equalTo, .constant(.decimal(Decimal(string: "-12.345") ?? 0))), #"x == CAST("-12.345", "NSDecimalNumber")"#),
        PrintCase(T.cmp(T.key("x"), .equalTo, .constant(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()))),
                  #"x == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#),
        PrintCase(T.cmp(T.key("x"), .equalTo, .constant(.uri(URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")))),
                  #"x == CAST("https://example.com/a?b=c", "NSURL")"#),
        PrintCase(T.cmp(T.key("x"), .equalTo, .constant(.data(Data([0, 1, 2, 255])))), #"x == CAST("AAEC/w==", "NSData")"#),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.string("a\"b\\c\nd\te\u{1}")), #"x == "a\"b\\c\nd\te\u0001""#),
        PrintCase(T.cmp(T.key("x"), .equalTo, T.string("it's")), #"x == "it's""#),
        PrintCase(T.cmp(T.key("in"), .equalTo, T.int(1)), "#in == 1"),
        PrintCase(T.cmp(T.key("team.and"), .equalTo, T.int(1)), "team.#and == 1"),
        PrintCase(T.cmp(T.key("1st"), .equalTo, T.int(1)), "#1st == 1"),
        PrintCase(T.cmp(T.key("café"), .equalTo, T.int(1)), "café == 1"),
        PrintCase(T.cmp(.evaluatedObject, .in, .list([T.int(1)])), "SELF IN {1}"),
        PrintCase(T.cmp(T.key("@count"), .equalTo, T.int(1)), "@count == 1"),
        PrintCase(T.cmp(T.key("players.@sum.goals"), .greaterThan, T.int(1)), "players.@sum.goals > 1"),
        PrintCase(T.cmp(T.varKey("x", "name"), .equalTo, .variable("NAME")), "$x.name == $NAME"),
        PrintCase(T.cmp(.subqueryCount(collection: T.key("players"), variable: "p",
                                       predicate: .or([T.cmp(T.varKey("p", "age"), .greaterThan, T.int(30)),
                                                       T.cmp(T.varKey("p", "in"), .equalTo, T.int(1))])), .greaterThan, T.int(0)),
                  "SUBQUERY(players, $p, $p.age > 30 OR $p.#in == 1).@count > 0"),
        PrintCase(T.cmp(.subquery(collection: T.key("players"), variable: "p", predicate: .constant(true)), .notEqualTo, T.null),
                  "SUBQUERY(players, $p, TRUEPREDICATE) != nil"),
    ]

    @Test(arguments: printCases)
    func prints(_ testCase: PrintCase) {
        #expect(FetchPredicate(node: testCase.tree).predicateFormat == testCase.expected)
    }

    @Test func expressionsPrintTheSameWay() throws {
        #expect(FetchExpression.keyPath("team.in").description == "team.#in")
        #expect(try FetchExpression.constant("a\"b").description == #""a\"b""#)
        #expect(try FetchExpression.constant([1, 2]).description == "{1, 2}")
        #expect(FetchExpression.variable("ZONE").description == "$ZONE")
        #expect(FetchExpression.evaluatedObject.description == "SELF")
        #expect(FetchPredicate(value: true).description == "TRUEPREDICATE")
    }

    static let roundTripFormats: [String] = [
        "wins > 3", "wins = 3", "wins <> 3", "wins =< 3", "wins => 3", "wins != -3",
        "teamName == 'Brazil'", "name BEGINSWITH[cd] 'a'", "name ENDSWITH[dc] 'a'", "name CONTAINS[c] 'a'",
        "name LIKE[d] 'a?b*'", "name MATCHES '^[A-Z][a-z]+$'", "ANY players.name == 'x'", "SOME players.name == 'x'",
        "ALL players.number >= 1", "NONE players.number > 9", "wins BETWEEN {1, 5}", "zone IN {'A', 'B', nil}",
        "TRUEPREDICATE", "FALSEPREDICATE", "NOT TRUEPREDICATE", "a == 1 AND (b == 2 OR c == 3)", "(a == 1 OR b == 2) AND c == 3",
        "a == 1 OR b == 2 AND c == 3", "(a == 1 AND b == 2) AND c == 3", "a == 1 OR (b == 2 OR c == 3)",
        "NOT (a == 1)", "NOT a == 1 AND NOT b == 2", "!(a == 1 || b == 2) && c == 3", "NOT NOT NOT a == 1",
        "x == 1.0", "x == 0.1", "x == 1e300", "x == 5e-324", "x == 1.7976931348623157e308", "x == -0.0",
        "x == 9223372036854775807", "x == -9223372036854775808", "x == 18446744073709551616", "x == 0xFF", "x == 1e999",
        "x == TRUE", "x == NO", "x == NULL", "x == \"\\\"\\\\\\n\\t\\r\\u{7F}\\u{2028}\"", "x == '🇫🇷 e\u{301}'",
        "x == CAST(721692000.123456, 'NSDate')", "x == CAST(-978307200, 'NSDate')", "x == CAST('inf', 'NSDate')",
        "x == CAST('0.000000000000000000000000000000000000000000000000000000000000001', 'NSDecimalNumber')",
        "x == CAST('-99999999999999999999999999999999999999', 'NSDecimalNumber')", "x == CAST('NaN', 'NSDecimalNumber')",
        "x == CAST('00000000-0000-0000-0000-000000000000', 'NSUUID')", "x == CAST('file:///tmp/a%20b', 'NSURL')",
        "x == CAST('', 'NSData')", "x == CAST('-inf', 'NSNumber')",
        "#in == 1", "#AND.#or.not == 1", "team.in == 1", "#1st == 1", "café.naïve == 1", "SELF == nil", "SELF.name == name",
        "SELF.@count == 0", "players.@count > 1", "players.@avg.age > 1", "players.@min.age < players.@max.age",
        "$VAR == 1", "$x.name == $y.name", "{1, {2, {}}} CONTAINS x", "3 < wins", "'x' IN names",
        "SUBQUERY(players, $p, $p.age > 30).@count > 0", "SUBQUERY(players, $p, $p.age > 30 AND $p.name BEGINSWITH 'a') != nil",
        "SUBQUERY(teams, $t, SUBQUERY($t.players, $p, $p.team == $t).@count == 0).@count == 1",
        "ANY SUBQUERY(players, $p, TRUEPREDICATE).@count IN {1, 2}",
        "wins BETWEEN {$LOW, $HIGH} OR wins BETWEEN $RANGE",
    ]

    @Test(arguments: roundTripFormats)
    func roundTrips(_ format: String) throws {
        let parsed = try FetchPredicate(format: format)
        let printed = parsed.predicateFormat
        let reparsed = try FetchPredicate(format: printed)
        #expect(reparsed == parsed, "printed as \(printed)")
        #expect(reparsed.predicateFormat == printed)
    }

    /// Values given as arguments print as literals that parse back to the same values.
    @Test func argumentValuesRoundTrip() throws {
        let values: [Any?] = [
            "text", 42, -1.5, Float(0.1), true, nil, Date(timeIntervalSinceReferenceDate: 1234.5678), Date.distantPast,
            UUID(), URL(string: "https://example.com/?q=a%20b#frag"), Data((0..<64).map { UInt8($0 * 3 % 256) }),
            Decimal(string: "3.14159265358979323846264338327950288"), [1, 2, 3], Set(["a"]), [["nested"], [1.5]],
        ]
        for value in values {
            let predicate = try FetchPredicate(format: "x == %@", value)
            let reparsed = try FetchPredicate(format: predicate.predicateFormat)
            #expect(reparsed == predicate, "\(String(describing: value)) printed as \(predicate.predicateFormat)")
        }
    }

    // MARK: - Random trees

    static let treeCount = 3_000

    @Test func randomTreesRoundTrip() throws {
        // Each tree has its own seed, so a failure can be replayed alone.
        let baseSeed = ProcessInfo.processInfo.environment["PREDICATE_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
        var failures = 0
        for index in 0..<Self.treeCount {
            let seed = baseSeed &+ UInt64(index)
            var generator = RandomPredicateGenerator(seed: seed)
            let tree = generator.predicate(depth: 0, variables: [])
            let printed = FetchPredicate(node: tree).predicateFormat
            do {
                let reparsed = try FetchPredicate(format: printed)
                if reparsed.node != tree || reparsed.predicateFormat != printed {
                    failures += 1
                    Issue.record("seed \(seed): \(printed) came back as \(reparsed.predicateFormat)")
                }
            } catch {
                failures += 1
                Issue.record("seed \(seed): \(printed) does not parse: \(error)")
            }
            if failures >= 5 { break }
        }
    }

    @Test func generatorCoversTheGrammar() {
        // Guards the property test itself: the random trees must reach every construct.
        var seen = Set<String>()
        for seed in 0..<UInt64(500) {
            var generator = RandomPredicateGenerator(seed: seed)
            seen.formUnion(Self.constructs(in: FetchPredicate(node: generator.predicate(depth: 0, variables: [])).predicateFormat))
        }
        let expected: Set<String> = ["AND", "OR", "NOT", "ANY", "ALL", "NONE", "SUBQUERY", "@count", "BETWEEN", "MATCHES", "[cd]",
                                     "NSDate", "NSDecimalNumber", "NSUUID", "NSURL", "NSData", "#", "$", "{", "\\", "FUNCTION"]
        #expect(expected.subtracting(seen).isEmpty, "never generated: \(expected.subtracting(seen).sorted())")
    }

    private static func constructs(in format: String) -> Set<String> {
        let markers = ["AND", "OR", "NOT", "ANY", "ALL", "NONE", "SUBQUERY", "@count", "BETWEEN", "MATCHES", "[cd]",
                       "NSDate", "NSDecimalNumber", "NSUUID", "NSURL", "NSData", "#", "$", "{", "\\", "FUNCTION"]
        return Set(markers.filter { format.contains($0) })
    }

    // MARK: - Random strings

    @Test func randomStringsNeverCrash() {
        var random = SplitMix64(seed: 0xF022_2026)
        let tokens = ["wins", "name", "players", ".", "@count", "@sum", "@x", "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=",
                      "=>", "AND", "OR", "NOT", "!", "&&", "||", "ANY", "ALL", "NONE", "SOME", "IN", "BETWEEN", "CONTAINS",
                      "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "[c]", "[cd]", "[x]", "[", "]", "(", ")", "{", "}", ",",
                      "TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "NO", "nil", "SELF", "$x", "$", "#in", "#", "%@", "%K", "%d",
                      "%f", "%s", "%", "%x", "'a'", "\"b\\\"\"", "'unterminated", "\"\\u{1F600}\"", "\"\\uD83D\"", "\\", "1",
                      "-2", "3.5", "1e9", "0x1F", "0b2", "1e", "9223372036854775808", "SUBQUERY", "CAST", "'NSDate'",
                      "'NSDecimalNumber'", "'NSUUID'", "'NSData'", "'NSNumber'", "'1.5'", "'AA=='", "FUNCTION", "+", "-",
                      "*", "/", "~", "`", "\u{0}", "é", "\u{301}", "🇫🇷", "'.*('", "FIRST", "'nan'", "'NaN'"]
        let arguments: [[Any?]] = [[], ["name"], [1, 2.5, "x"], [["a", "b"], nil, Set([1])], [Date(), UUID(), Data([1])]]
        var parsed = 0
        var mismatches = 0
        for round in 0..<6_000 {
            var format = ""
            if round.isMultiple(of: 2) {
                // Token soup with stray characters: almost always malformed.
                for _ in 0..<Int(random.next() % 12) {
                    if random.next() % 10 == 0 {
                        format.unicodeScalars.append(Unicode.Scalar(UInt8(random.next() % 128)))
                    } else if random.next() % 10 == 0, let scalar = Unicode.Scalar(UInt32(random.next() % 0x11_0000)) {
                        format.unicodeScalars.append(scalar)
                    } else {
                        format += tokens[Int(random.next() % UInt64(tokens.count))]
                    }
                    if random.next() % 3 != 0 { format += " " }
                }
            } else {
                // Grammatical sentences, then a few mutations: often valid, sometimes subtly not.
                var sentence = NearlyValidFormat(random: random)
                format = sentence.make(mutatingWith: tokens)
                random = sentence.random
            }
            let argumentList = arguments[Int(random.next() % UInt64(arguments.count))]
            guard let predicate = try? FetchPredicate(format: format, argumentArray: argumentList) else { continue }
            parsed += 1
            // Whatever parses prints as something that parses back the same.
            let printed = predicate.predicateFormat
            if (try? FetchPredicate(format: printed)) != predicate {
                mismatches += 1
                Issue.record("\(format.debugDescription) printed as \(printed.debugDescription), which parses differently")
                if mismatches >= 5 { break }
            }
        }
        #expect(parsed > 500, "the random strings should often be valid")
    }
}

// MARK: - Generators

// SplitMix64 (seeded, replayable) comes from FetchedResultsChecking.

/// Random format strings from a small grammar, with random token deletions, insertions and
/// swaps, for the no-crash test.
struct NearlyValidFormat {
    var random: SplitMix64
    private var tokens: [String] = []

    init(random: SplitMix64) { self.random = random }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    private mutating func pick(_ options: [String]) -> String { options[below(options.count)] }

    mutating func make(mutatingWith soup: [String]) -> String {
        for index in 0..<(1 + below(4)) {
            if index > 0 { tokens.append(pick(["AND", "OR", "&&", "||", "and"])) }
            if below(4) == 0 { tokens.append(pick(["NOT", "!"])) }
            if below(5) == 0 {
                tokens.append("(")
                comparison()
                tokens.append(")")
            } else {
                comparison()
            }
        }
        for _ in 0..<[0, 0, 1, 2][below(4)] where !tokens.isEmpty {
            switch below(3) {
            case 0: tokens.remove(at: below(tokens.count))
            case 1: tokens.insert(soup[below(soup.count)], at: below(tokens.count + 1))
            default: tokens.swapAt(below(tokens.count), below(tokens.count))
            }
        }
        return tokens.joined(separator: " ")
    }

    private mutating func comparison() {
        if below(4) == 0 { tokens.append(pick(["ANY", "ALL", "NONE", "SOME"])) }
        tokens.append(pick(["wins", "team.name", "players.@count", "players.@sum.goals", "SELF", "#in", "$x.name", "%K", "3", "'s'",
                            "SUBQUERY(players, $p, $p.age > 3).@count"]))
        tokens.append(pick(["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH",
                            "LIKE", "MATCHES", "BETWEEN"]))
        if below(3) == 0 { tokens.append(pick(["[c]", "[d]", "[cd]", "[dc]"])) }
        tokens.append(pick(["3", "-2.5", "1e3", "'a.*'", "\"b\\\"\"", "{1, 2}", "{'x', nil}", "{}", "nil", "YES", "%@", "%d", "$X",
                            "SELF", "CAST(0, 'NSDate')", "CAST('1.5', 'NSDecimalNumber')", "other.key", "0x10",
                            "SUBQUERY(items, $i, $i.v > 1 OR $i == $X).@count"]))
    }
}

/// Random predicate trees of the shapes the parser produces (compounds of two or more, key
/// paths of any keys but empty ones, no object IDs), reaching every construct of the grammar.
struct RandomPredicateGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    mutating func predicate(depth: Int, variables: [String]) -> FetchPredicate.Node {
        let roll = depth > 3 ? 10 : below(10)
        switch roll {
        case 0: return .and((0..<(2 + below(3))).map { _ in predicate(depth: depth + 1, variables: variables) })
        case 1: return .or((0..<(2 + below(3))).map { _ in predicate(depth: depth + 1, variables: variables) })
        case 2: return .not(predicate(depth: depth + 1, variables: variables))
        case 3 where chance(30): return .constant(chance(50))
        default: return .comparison(comparison(depth: depth, variables: variables))
        }
    }

    private mutating func comparison(depth: Int, variables: [String]) -> FetchPredicate.Comparison {
        let op = pick(FetchPredicate.Operator.allCases)
        var lhs = expression(depth: depth, variables: variables)
        let rhs: FetchExpression.Node
        switch op {
        case .between:
            rhs = chance(80) ? .list([expression(depth: depth + 2, variables: variables), expression(depth: depth + 2, variables: variables)])
                : .variable(pick(["RANGE", "r"]))
        case .matches:
            rhs = chance(70) ? .constant(.string(pick(["a.*", "^[A-Z][a-z]+$", #"\d{3}-\d{4}"#, "(foo|bar)?baz", "[[:alpha:]]+", ""])))
                : .keyPath(root: .object, components: keyPath())
        default:
            rhs = expression(depth: depth, variables: variables)
        }
        // `players.@count IN "text"` is refused by the parser, so the generator avoids it.
        if op == .in, case .constant(.string) = rhs, case .keyPath(_, let components) = lhs, components.contains(where: { $0.hasPrefix("@") }) {
            lhs = .keyPath(root: .object, components: ["name"])
        }
        let modifier = pick([FetchPredicate.Modifier.direct, .direct, .any, .all, .none])
        let options = pick([FetchPredicate.Options(), [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]])
        return FetchPredicate.Comparison(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: options)
    }

    private mutating func expression(depth: Int, variables: [String]) -> FetchExpression.Node {
        switch below(depth > 4 ? 6 : 12) {
        case 0, 1, 2: return .keyPath(root: .object, components: keyPath())
        case 3, 4: return .constant(constant())
        case 5: return variables.isEmpty || chance(30) ? .variable(variableName()) : .keyPath(root: .variable(pick(variables)), components: keyPath())
        case 6: return .evaluatedObject
        case 7: return .keyPath(root: .variable(variableName()), components: keyPath())
        case 8, 9: return .list((0..<below(4)).map { _ in expression(depth: depth + 2, variables: variables) })
        default:
            let variable = variableName()
            let collection: FetchExpression.Node = variables.isEmpty || chance(50)
                ? .keyPath(root: .object, components: keyPath())
                : .keyPath(root: .variable(pick(variables)), components: keyPath())
            let condition = predicate(depth: depth + 2, variables: variables + [variable])
            return chance(70) ? .subqueryCount(collection: collection, variable: variable, predicate: condition)
                : .subquery(collection: collection, variable: variable, predicate: condition)
        }
    }

    private static let keys = ["wins", "teamName", "players", "team", "name", "in", "AND", "Or", "not", "SELF", "size", "first",
                               "café", "naïve", "_x", "x1", "1st", "ÜBER", "NIL", "yes", "e", "e1", "ANY", "between", "cast",
                               "SUBQUERY", "truepredicate", "ci", "ı",
                               // Keys only a %K argument can give: printed as FUNCTION(..., "valueForKeyPath:", ...).
                               "first name", "e-mail", "a/b", "@foo", "100%", "\"q\"", "tab\there"]

    private mutating func keyPath() -> [String] {
        var components = (0..<(1 + below(3))).map { _ in pick(Self.keys) }
        switch below(8) {
        case 0: components.append("@count")
        case 1: components.insert(pick(["@sum", "@avg", "@min", "@max"]), at: components.count - 1)
        case 2: components.insert("@count", at: 0)
        default: break
        }
        return components
    }

    private mutating func variableName() -> String {
        pick(["x", "p", "ZONE", "IN", "v1", "_", "9lives", "été"])
    }

    private mutating func constant() -> PropertyValue {
        switch below(11) {
        case 0: return .null
        case 1: return .integer(pick([0, 1, -1, .max, .min, Int64(bitPattern: random.next()), Int64(below(1000))]))
        case 2: return .double(double())
        case 3:
            let significand = Decimal(random.next() >> UInt64(below(64)))
            return .decimal(Decimal(sign: chance(50) ? .plus : .minus, exponent: below(60) - 30, significand: significand))
        case 4, 5: return .string(string())
        case 6: return .boolean(chance(50))
        case 7: return .date(Date(timeIntervalSinceReferenceDate: pick([0, -978_307_200, 721_692_000.123456, double()])))
        case 8: return .data(Data((0..<below(20)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case 9: return .uuid(UUID(uuid: uuidBytes()))
        default:
            let path = (0..<below(3)).map { _ in pick(["a", "b%20c", "caf%C3%A9", "x_y", "~z"]) }.joined(separator: "/")
            let text = pick(["https://example.com/", "file:///tmp/", "x-custom:"]) + path + pick(["", "?q=1", "#frag"])
            return .uri(URL(string: text) ?? URL(fileURLWithPath: "/"))
        }
    }

    private mutating func double() -> Double {
        if chance(40) { return pick([0.5, -0.25, 1.0, 1e16, 1e-7, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, 0.1]) }
        let value = Double(bitPattern: random.next())
        return value
    }

    private mutating func string() -> String {
        let pieces = ["a", "Z", " ", "\"", "'", "\\", "\n", "\t", "\r", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{2028}", "é",
                      "e\u{301}", "🇫🇷", "😀", "%@", "$x", "#in", "AND", ")", "{", "\\u{41}", "ı"]
        return (0..<below(8)).map { _ in pick(pieces) }.joined()
    }

    private mutating func uuidBytes() -> uuid_t {
        let high = random.next()
        let low = random.next()
        func byte(_ word: UInt64, _ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: word >> (index * 8)) }
        return (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7))
    }
}

@Suite struct PredicateBuilderTests {
    @Test func chainsFlattenAndPrintBackExactly() throws {
        let conditions = try (0..<100).map { try FetchPredicate(format: "wins != %d", $0) }
        let chained = conditions.dropFirst().reduce(conditions[0], &&)
        guard case .and(let parts) = chained.node else {
            Issue.record("expected one AND, got \(chained.predicateFormat)")
            return
        }
        #expect(parts.count == 100)
        #expect(try FetchPredicate(format: chained.predicateFormat) == chained)
        #expect(FetchPredicate.and([conditions[0]]) == conditions[0])
        #expect(FetchPredicate.and([]).predicateFormat == "TRUEPREDICATE")
        #expect(FetchPredicate.or([]).predicateFormat == "FALSEPREDICATE")
        #expect((conditions[0] || conditions[1] || conditions[2]).predicateFormat == "wins != 0 OR wins != 1 OR wins != 2")
    }
}
