import Foundation
import OpenCoreData
import Testing

// The predicate format parser: what each construct of Core Data's format language parses to,
// which arguments it accepts, the exact errors (message, code and offset) for malformed input,
// and variable substitution. Printing and round trips are in PredicatePrinterTests.

/// Builders for expected predicate trees, shared with PredicatePrinterTests.
enum PredicateTrees {
    static func key(_ path: String) -> FetchExpression.Node {
        .keyPath(root: .object, components: path.split(separator: ".").map(String.init))
    }

    static func varKey(_ variable: String, _ path: String) -> FetchExpression.Node {
        .keyPath(root: .variable(variable), components: path.split(separator: ".").map(String.init))
    }

    static func int(_ value: Int64) -> FetchExpression.Node { .constant(.integer(value)) }
    static func double(_ value: Double) -> FetchExpression.Node { .constant(.double(value)) }
    static func string(_ value: String) -> FetchExpression.Node { .constant(.string(value)) }
    static func bool(_ value: Bool) -> FetchExpression.Node { .constant(.boolean(value)) }
    static let null = FetchExpression.Node.constant(.null)

    static func cmp(_ lhs: FetchExpression.Node, _ op: FetchPredicate.Operator, _ rhs: FetchExpression.Node,
                    _ modifier: FetchPredicate.Modifier = .direct, _ options: FetchPredicate.Options = []) -> FetchPredicate.Node {
        .comparison(FetchPredicate.Comparison(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: options))
    }

    /// `key == value`, the comparison the precedence tests combine.
    static func eq(_ path: String, _ value: Int64) -> FetchPredicate.Node { cmp(key(path), .equalTo, int(value)) }
}

private typealias T = PredicateTrees

/// A format string, its arguments and the tree it must parse to.
struct ParseCase: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: [any Sendable]
    let expected: FetchPredicate.Node

    init(_ format: String, _ arguments: [any Sendable], _ expected: FetchPredicate.Node) {
        self.format = format
        self.arguments = arguments
        self.expected = expected
    }

    init(_ format: String, _ expected: FetchPredicate.Node) {
        self.init(format, [], expected)
    }

    var testDescription: String { arguments.isEmpty ? format.debugDescription : "\(format.debugDescription) with \(arguments)" }
}

/// A malformed format string and the exact error it must throw.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: [any Sendable]
    let code: CoreDataErrorCode
    let message: String
    let offset: Int

    init(_ format: String, _ arguments: [any Sendable], _ code: CoreDataErrorCode, _ message: String, at offset: Int) {
        self.format = format
        self.arguments = arguments
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// A syntax error without arguments.
    init(_ format: String, _ message: String, at offset: Int) {
        self.init(format, [], PredicateParseError.syntaxError, message, at: offset)
    }

    var testDescription: String { format.debugDescription }
}

private let referenceDate = Date(timeIntervalSinceReferenceDate: 721_692_000.25)
private let sampleUUID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
private let sampleURL = URL(string: "https://example.com/teams?zone=UEFA") ?? URL(fileURLWithPath: "/")
private let sampleDecimal = Decimal(string: "12.345", locale: Locale(identifier: "en_US_POSIX")) ?? 0

private struct Opaque: Sendable {}

/// The code of the PredicateParseError `body` throws; records an issue if it throws nothing.
func parseErrorCode(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> CoreDataErrorCode? {
    #expect(throws: PredicateParseError.self, sourceLocation: sourceLocation) { try body() }?.code
}

@Suite struct PredicateParserTests {
    static let operators: [ParseCase] = [
        ParseCase("wins == 3", T.cmp(T.key("wins"), .equalTo, T.int(3))),
        ParseCase("wins = 3", T.cmp(T.key("wins"), .equalTo, T.int(3))),
        ParseCase("wins != 3", T.cmp(T.key("wins"), .notEqualTo, T.int(3))),
        ParseCase("wins <> 3", T.cmp(T.key("wins"), .notEqualTo, T.int(3))),
        ParseCase("wins < 3", T.cmp(T.key("wins"), .lessThan, T.int(3))),
        ParseCase("wins <= 3", T.cmp(T.key("wins"), .lessThanOrEqualTo, T.int(3))),
        ParseCase("wins =< 3", T.cmp(T.key("wins"), .lessThanOrEqualTo, T.int(3))),
        ParseCase("wins > 3", T.cmp(T.key("wins"), .greaterThan, T.int(3))),
        ParseCase("wins >= 3", T.cmp(T.key("wins"), .greaterThanOrEqualTo, T.int(3))),
        ParseCase("wins => 3", T.cmp(T.key("wins"), .greaterThanOrEqualTo, T.int(3))),
        ParseCase("wins>=3", T.cmp(T.key("wins"), .greaterThanOrEqualTo, T.int(3))),
        ParseCase("wins=<-3", T.cmp(T.key("wins"), .lessThanOrEqualTo, T.int(-3))),
        ParseCase("name MATCHES 'B.*l'", T.cmp(T.key("name"), .matches, T.string("B.*l"))),
        ParseCase("name LIKE 'B*z?l'", T.cmp(T.key("name"), .like, T.string("B*z?l"))),
        ParseCase("name BEGINSWITH 'Br'", T.cmp(T.key("name"), .beginsWith, T.string("Br"))),
        ParseCase("name ENDSWITH 'il'", T.cmp(T.key("name"), .endsWith, T.string("il"))),
        ParseCase("name CONTAINS 'raz'", T.cmp(T.key("name"), .contains, T.string("raz"))),
        ParseCase("zone IN {'A', 'B'}", T.cmp(T.key("zone"), .in, .list([T.string("A"), T.string("B")]))),
        ParseCase("wins BETWEEN {1, 5}", T.cmp(T.key("wins"), .between, .list([T.int(1), T.int(5)]))),
        ParseCase("name beginswith 'a'", T.cmp(T.key("name"), .beginsWith, T.string("a"))),
        ParseCase("name Contains 'a' or wins between {1,2}",
                  .or([T.cmp(T.key("name"), .contains, T.string("a")), T.cmp(T.key("wins"), .between, .list([T.int(1), T.int(2)]))])),
        ParseCase("name like 'a' and name matches 'b' && name endsWith 'c'",
                  .and([T.cmp(T.key("name"), .like, T.string("a")), T.cmp(T.key("name"), .matches, T.string("b")),
                        T.cmp(T.key("name"), .endsWith, T.string("c"))])),
        ParseCase("zone in %@", [["A", "B"]], T.cmp(T.key("zone"), .in, .list([T.string("A"), T.string("B")]))),
        ParseCase("wins BETWEEN %@", [[1, 5]], T.cmp(T.key("wins"), .between, .list([T.int(1), T.int(5)]))),
        ParseCase("wins BETWEEN $RANGE", T.cmp(T.key("wins"), .between, .variable("RANGE"))),
        ParseCase("3 < wins", T.cmp(T.int(3), .lessThan, T.key("wins"))),
        ParseCase("%@ IN players", ["Pelé"], T.cmp(T.string("Pelé"), .in, T.key("players"))),
    ]

    static let modifiersAndOptions: [ParseCase] = [
        ParseCase("ANY players.name == 'x'", T.cmp(T.key("players.name"), .equalTo, T.string("x"), .any)),
        ParseCase("SOME players.name == 'x'", T.cmp(T.key("players.name"), .equalTo, T.string("x"), .any)),
        ParseCase("any players.name == 'x'", T.cmp(T.key("players.name"), .equalTo, T.string("x"), .any)),
        ParseCase("ALL players.number > 9", T.cmp(T.key("players.number"), .greaterThan, T.int(9), .all)),
        ParseCase("NONE players.number > 9", T.cmp(T.key("players.number"), .greaterThan, T.int(9), .none)),
        ParseCase("name ==[c] 'a'", T.cmp(T.key("name"), .equalTo, T.string("a"), .direct, .caseInsensitive)),
        ParseCase("name ==[d] 'a'", T.cmp(T.key("name"), .equalTo, T.string("a"), .direct, .diacriticInsensitive)),
        ParseCase("name BEGINSWITH[cd] 'a'",
                  T.cmp(T.key("name"), .beginsWith, T.string("a"), .direct, [.caseInsensitive, .diacriticInsensitive])),
        ParseCase("name LIKE[dc] 'a'", T.cmp(T.key("name"), .like, T.string("a"), .direct, [.caseInsensitive, .diacriticInsensitive])),
        ParseCase("name CONTAINS [c] 'a'", T.cmp(T.key("name"), .contains, T.string("a"), .direct, .caseInsensitive)),
        ParseCase("ANY players.name IN[cd] {'a'}",
                  T.cmp(T.key("players.name"), .in, .list([T.string("a")]), .any, [.caseInsensitive, .diacriticInsensitive])),
    ]

    static let literals: [ParseCase] = [
        ParseCase("x == 42", T.cmp(T.key("x"), .equalTo, T.int(42))),
        ParseCase("x == -42", T.cmp(T.key("x"), .equalTo, T.int(-42))),
        ParseCase("x == 9223372036854775807", T.cmp(T.key("x"), .equalTo, T.int(.max))),
        ParseCase("x == -9223372036854775808", T.cmp(T.key("x"), .equalTo, T.int(.min))),
        ParseCase("x == 9223372036854775808", T.cmp(T.key("x"), .equalTo, T.double(9_223_372_036_854_775_808))),
        ParseCase("x == 0x1F", T.cmp(T.key("x"), .equalTo, T.int(31))),
        ParseCase("x == -0x10", T.cmp(T.key("x"), .equalTo, T.int(-16))),
        ParseCase("x == 0o17", T.cmp(T.key("x"), .equalTo, T.int(15))),
        ParseCase("x == 0b101", T.cmp(T.key("x"), .equalTo, T.int(5))),
        ParseCase("x == 1.5", T.cmp(T.key("x"), .equalTo, T.double(1.5))),
        ParseCase("x == -1.5", T.cmp(T.key("x"), .equalTo, T.double(-1.5))),
        ParseCase("x == 1.0", T.cmp(T.key("x"), .equalTo, T.double(1))),
        ParseCase("x == 1e3", T.cmp(T.key("x"), .equalTo, T.double(1000))),
        ParseCase("x == 1.5E-3", T.cmp(T.key("x"), .equalTo, T.double(0.0015))),
        ParseCase("x == 2e+2", T.cmp(T.key("x"), .equalTo, T.double(200))),
        ParseCase(#"x == "double \"quoted\"""#, T.cmp(T.key("x"), .equalTo, T.string(#"double "quoted""#))),
        ParseCase(#"x == 'single \'quoted\' "plain"'"#, T.cmp(T.key("x"), .equalTo, T.string(#"single 'quoted' "plain""#))),
        ParseCase(#"x == "back\\slash\n\t\r""#, T.cmp(T.key("x"), .equalTo, T.string("back\\slash\n\t\r"))),
        ParseCase(#"x == "\u{1F600} \u00e9 \uD83D\uDE00""#, T.cmp(T.key("x"), .equalTo, T.string("😀 é 😀"))),
        ParseCase("x == ''", T.cmp(T.key("x"), .equalTo, T.string(""))),
        ParseCase("x == TRUE", T.cmp(T.key("x"), .equalTo, T.bool(true))),
        ParseCase("x == yes", T.cmp(T.key("x"), .equalTo, T.bool(true))),
        ParseCase("x == FALSE", T.cmp(T.key("x"), .equalTo, T.bool(false))),
        ParseCase("x == NO", T.cmp(T.key("x"), .equalTo, T.bool(false))),
        ParseCase("x == NIL", T.cmp(T.key("x"), .equalTo, T.null)),
        ParseCase("x == null", T.cmp(T.key("x"), .equalTo, T.null)),
        ParseCase("x IN {}", T.cmp(T.key("x"), .in, .list([]))),
        ParseCase("x IN {1, {2, 'b'}, nil}", T.cmp(T.key("x"), .in, .list([T.int(1), .list([T.int(2), T.string("b")]), T.null]))),
        ParseCase(#"x == CAST(721692000.25, "NSDate")"#, T.cmp(T.key("x"), .equalTo, .constant(.date(referenceDate)))),
        ParseCase(#"x == CAST(-3, 'NSDate')"#, T.cmp(T.key("x"), .equalTo, .constant(.date(Date(timeIntervalSinceReferenceDate: -3))))),
        ParseCase(#"x == CAST("721692000.25", "NSDate")"#, T.cmp(T.key("x"), .equalTo, .constant(.date(referenceDate)))),
        ParseCase(#"x == CAST("12.345", "NSDecimalNumber")"#, T.cmp(T.key("x"), .equalTo, .constant(.decimal(sampleDecimal)))),
        ParseCase(#"x == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#, T.cmp(T.key("x"), .equalTo, .constant(.uuid(sampleUUID)))),
        ParseCase(#"x == CAST("https://example.com/teams?zone=UEFA", "NSURL")"#, T.cmp(T.key("x"), .equalTo, .constant(.uri(sampleURL)))),
        ParseCase(#"x == CAST("AAEC/w==", "NSData")"#, T.cmp(T.key("x"), .equalTo, .constant(.data(Data([0, 1, 2, 255]))))),
        ParseCase(#"x == CAST("-inf", "NSNumber")"#, T.cmp(T.key("x"), .equalTo, T.double(-.infinity))),
        ParseCase(#"x == cast("7", "NSNumber")"#, T.cmp(T.key("x"), .equalTo, T.int(7))),
    ]

    static let argumentCases: [ParseCase] = [
        ParseCase("x == %@", ["text"], T.cmp(T.key("x"), .equalTo, T.string("text"))),
        ParseCase("x == %@", [7], T.cmp(T.key("x"), .equalTo, T.int(7))),
        ParseCase("x == %@", [Int32(-7)], T.cmp(T.key("x"), .equalTo, T.int(-7))),
        ParseCase("x == %@", [UInt8(200)], T.cmp(T.key("x"), .equalTo, T.int(200))),
        ParseCase("x == %@", [2.5], T.cmp(T.key("x"), .equalTo, T.double(2.5))),
        ParseCase("x == %@", [Float(0.5)], T.cmp(T.key("x"), .equalTo, T.double(0.5))),
        ParseCase("x == %@", [true], T.cmp(T.key("x"), .equalTo, T.bool(true))),
        ParseCase("x == %@", [String?.none], T.cmp(T.key("x"), .equalTo, T.null)),
        ParseCase("x == %@", [referenceDate], T.cmp(T.key("x"), .equalTo, .constant(.date(referenceDate)))),
        ParseCase("x == %@", [sampleUUID], T.cmp(T.key("x"), .equalTo, .constant(.uuid(sampleUUID)))),
        ParseCase("x == %@", [sampleURL], T.cmp(T.key("x"), .equalTo, .constant(.uri(sampleURL)))),
        ParseCase("x == %@", [Data([1, 2])], T.cmp(T.key("x"), .equalTo, .constant(.data(Data([1, 2]))))),
        ParseCase("x == %@", [sampleDecimal], T.cmp(T.key("x"), .equalTo, .constant(.decimal(sampleDecimal)))),
        ParseCase("x IN %@", [Set(["only"])], T.cmp(T.key("x"), .in, .list([T.string("only")]))),
        ParseCase("x IN %@", [[1, 2, 3] as [Int]], T.cmp(T.key("x"), .in, .list([T.int(1), T.int(2), T.int(3)]))),
        ParseCase("%K == 1", ["team.teamName"], T.cmp(T.key("team.teamName"), .equalTo, T.int(1))),
        ParseCase("%K.@count > 1", ["players"], T.cmp(T.key("players.@count"), .greaterThan, T.int(1))),
        ParseCase("%K == %@", ["in", "x"], T.cmp(T.key("in"), .equalTo, T.string("x"))),
        ParseCase("x == %d", [3], T.cmp(T.key("x"), .equalTo, T.int(3))),
        ParseCase("x == %i", [Int16(-3)], T.cmp(T.key("x"), .equalTo, T.int(-3))),
        ParseCase("x == %ld", [Int.max], T.cmp(T.key("x"), .equalTo, T.int(.max))),
        ParseCase("x == %lld", [Int64.min], T.cmp(T.key("x"), .equalTo, T.int(.min))),
        ParseCase("x == %u", [UInt32(4)], T.cmp(T.key("x"), .equalTo, T.int(4))),
        ParseCase("x == %lu", [UInt(5)], T.cmp(T.key("x"), .equalTo, T.int(5))),
        ParseCase("x == %f", [1.25], T.cmp(T.key("x"), .equalTo, T.double(1.25))),
        ParseCase("x == %f", [NSNumber(value: 0.75)], T.cmp(T.key("x"), .equalTo, T.double(0.75))),
        ParseCase("x == %d", [NSNumber(value: 12)], T.cmp(T.key("x"), .equalTo, T.int(12))),
        ParseCase("x == %lf", [2], T.cmp(T.key("x"), .equalTo, T.double(2))),
        ParseCase("x == %s", ["s"], T.cmp(T.key("x"), .equalTo, T.string("s"))),
        ParseCase("%K == %@ AND %K > %d", ["a", "b", "c", 4],
                  .and([T.cmp(T.key("a"), .equalTo, T.string("b")), T.cmp(T.key("c"), .greaterThan, T.int(4))])),
        ParseCase("x == %@", ["used", "ignored", 3], T.cmp(T.key("x"), .equalTo, T.string("used"))),
        ParseCase("x IN {%@, %d}", ["a", 1], T.cmp(T.key("x"), .in, .list([T.string("a"), T.int(1)]))),
    ]

    static let expressions: [ParseCase] = [
        ParseCase("team.teamName == 'x'", T.cmp(T.key("team.teamName"), .equalTo, T.string("x"))),
        ParseCase("players.@count > 2", T.cmp(T.key("players.@count"), .greaterThan, T.int(2))),
        ParseCase("players.@sum.goals > 2", T.cmp(T.key("players.@sum.goals"), .greaterThan, T.int(2))),
        ParseCase("players.@avg.goals > 2", T.cmp(T.key("players.@avg.goals"), .greaterThan, T.int(2))),
        ParseCase("players.@min.age < 20", T.cmp(T.key("players.@min.age"), .lessThan, T.int(20))),
        ParseCase("players.@max.age < 40", T.cmp(T.key("players.@max.age"), .lessThan, T.int(40))),
        ParseCase("#IN == 1", T.cmp(T.key("IN"), .equalTo, T.int(1))),
        ParseCase("team.#AND == 1", T.cmp(T.key("team.AND"), .equalTo, T.int(1))),
        ParseCase("team.in == 1", T.cmp(T.key("team.in"), .equalTo, T.int(1))),
        ParseCase("#name == 1", T.cmp(T.key("name"), .equalTo, T.int(1))),
        ParseCase("#1st == 1", T.cmp(T.key("1st"), .equalTo, T.int(1))),
        ParseCase("café_ü2 == 1", T.cmp(T.key("café_ü2"), .equalTo, T.int(1))),
        ParseCase("_private == 1", T.cmp(T.key("_private"), .equalTo, T.int(1))),
        ParseCase("SELF == %@", ["x"], T.cmp(.evaluatedObject, .equalTo, T.string("x"))),
        ParseCase("self IN %@", [["x"]], T.cmp(.evaluatedObject, .in, .list([T.string("x")]))),
        ParseCase("SELF.name == name", T.cmp(T.key("name"), .equalTo, T.key("name"))),
        ParseCase("SELF.@count == 2", T.cmp(T.key("@count"), .equalTo, T.int(2))),
        ParseCase("name == $NAME", T.cmp(T.key("name"), .equalTo, .variable("NAME"))),
        ParseCase("$x.name == 'a'", T.cmp(T.varKey("x", "name"), .equalTo, T.string("a"))),
        ParseCase("SUBQUERY(players, $p, $p.number > 9).@count > 0",
                  T.cmp(.subqueryCount(collection: T.key("players"), variable: "p",
                                       predicate: T.cmp(T.varKey("p", "number"), .greaterThan, T.int(9))), .greaterThan, T.int(0))),
        ParseCase("SUBQUERY(players, $p, $p.name BEGINSWITH 'a' AND $p.number < 5) != nil",
                  T.cmp(.subquery(collection: T.key("players"), variable: "p",
                                  predicate: .and([T.cmp(T.varKey("p", "name"), .beginsWith, T.string("a")),
                                                   T.cmp(T.varKey("p", "number"), .lessThan, T.int(5))])), .notEqualTo, T.null)),
        ParseCase("subquery(teams, $t, subquery($t.players, $p, $p == $t).@count == 0).@count == 1",
                  T.cmp(.subqueryCount(collection: T.key("teams"), variable: "t", predicate: T.cmp(
                      .subqueryCount(collection: T.varKey("t", "players"), variable: "p",
                                     predicate: T.cmp(.variable("p"), .equalTo, .variable("t"))),
                      .equalTo, T.int(0))), .equalTo, T.int(1))),
    ]

    static let structure: [ParseCase] = [
        ParseCase("TRUEPREDICATE", .constant(true)),
        ParseCase("falsepredicate", .constant(false)),
        ParseCase("a == 1 OR b == 2 AND c == 3", .or([T.eq("a", 1), .and([T.eq("b", 2), T.eq("c", 3)])])),
        ParseCase("a == 1 AND b == 2 OR c == 3", .or([.and([T.eq("a", 1), T.eq("b", 2)]), T.eq("c", 3)])),
        ParseCase("a == 1 AND b == 2 AND c == 3", .and([T.eq("a", 1), T.eq("b", 2), T.eq("c", 3)])),
        ParseCase("a == 1 OR b == 2 || c == 3", .or([T.eq("a", 1), T.eq("b", 2), T.eq("c", 3)])),
        ParseCase("(a == 1 AND b == 2) AND c == 3", .and([.and([T.eq("a", 1), T.eq("b", 2)]), T.eq("c", 3)])),
        ParseCase("a == 1 AND (b == 2 OR c == 3)", .and([T.eq("a", 1), .or([T.eq("b", 2), T.eq("c", 3)])])),
        ParseCase("NOT a == 1 AND b == 2", .and([.not(T.eq("a", 1)), T.eq("b", 2)])),
        ParseCase("NOT (a == 1 AND b == 2)", .not(.and([T.eq("a", 1), T.eq("b", 2)]))),
        ParseCase("!a == 1 && b == 2 || c == 3", .or([.and([.not(T.eq("a", 1)), T.eq("b", 2)]), T.eq("c", 3)])),
        ParseCase("NOT NOT a == 1", .not(.not(T.eq("a", 1)))),
        ParseCase("((a == 1))", T.eq("a", 1)),
        ParseCase("TRUEPREDICATE AND NOT FALSEPREDICATE", .and([.constant(true), .not(.constant(false))])),
        ParseCase("  a == 1\n\tAND\u{00A0}b == 2  ", .and([T.eq("a", 1), T.eq("b", 2)])),
    ]

    @Test(arguments: operators + modifiersAndOptions + literals + argumentCases + expressions + structure)
    func parses(_ testCase: ParseCase) throws {
        let predicate = try FetchPredicate(format: testCase.format, argumentArray: testCase.arguments.map { $0 as Any? })
        #expect(predicate.node == testCase.expected)
    }

    static let errors: [ErrorCase] = [
        ErrorCase("(wins > 3", "expected ')'", at: 9),
        ErrorCase("wins > 3)", "unexpected ')'", at: 8),
        ErrorCase("wins >", "expected an expression", at: 6),
        ErrorCase("wins > AND x == 1", "expected an expression", at: 7),
        ErrorCase("AND a == 1", "expected an expression", at: 0),
        ErrorCase("a == 1 AND", "expected an expression", at: 10),
        ErrorCase("IN == 1", "expected an expression", at: 0),
        ErrorCase("wins", "expected an operator", at: 4),
        ErrorCase("wins 3", "expected an operator", at: 5),
        ErrorCase("name ==[x] 'a'", "unknown comparison option 'x'", at: 8),
        ErrorCase("name ==[cx] 'a'", "unknown comparison option 'x'", at: 9),
        ErrorCase("name ==[cc] 'a'", "duplicate comparison option 'c'", at: 9),
        ErrorCase("name ==[] 'a'", "expected comparison options", at: 8),
        ErrorCase("name ==[c 'a'", "expected ']'", at: 10),
        ErrorCase("name ==[n] 'a'", [], PredicateParseError.unsupportedSyntax, "comparison option 'n' is not supported", at: 8),
        ErrorCase("name == 'abc", "unterminated string", at: 8),
        ErrorCase(#"name == "abc\"#, "unterminated string", at: 8),
        ErrorCase(#"name == 'a\q'"#, #"invalid escape '\q'"#, at: 10),
        ErrorCase(#"name == "\u{110000}""#, "invalid unicode escape", at: 9),
        ErrorCase(#"name == "\uD83D""#, "invalid unicode escape", at: 9),
        ErrorCase("wins ~ 3", "unexpected '~'", at: 5),
        ErrorCase("wins == 1 & b == 2", "unexpected '&'", at: 10),
        ErrorCase("wins == 1 \u{7}", #"unexpected '\u{7}'"#, at: 10),
        ErrorCase("wins ==\u{200B} 1", #"unexpected '\u{200B}'"#, at: 7),
        ErrorCase("wins > 3 extra", "unexpected 'extra'", at: 9),
        ErrorCase("wins == 12abc", "invalid number '12abc'", at: 8),
        ErrorCase("wins == 0x", "invalid number '0x'", at: 8),
        ErrorCase("wins == 0b102", "invalid number '0b102'", at: 8),
        ErrorCase("wins == 1e", "invalid number '1e'", at: 8),
        ErrorCase("wins IN {1, 2", "expected ',' or '}'", at: 13),
        ErrorCase("wins IN {1,}", "expected an expression", at: 11),
        ErrorCase("team. == 1", "expected a key after '.'", at: 6),
        ErrorCase("name == $", "expected a variable name after '$'", at: 8),
        ErrorCase("# == 1", "expected a key after '#'", at: 0),
        ErrorCase("wins == %x", "unknown format specifier '%x'", at: 8),
        ErrorCase("wins == %lK", "unknown format specifier '%lK'", at: 8),
        ErrorCase("wins == %@", [], PredicateParseError.missingArgument, "missing argument for '%@'", at: 8),
        ErrorCase("%K == %d", ["wins"], PredicateParseError.missingArgument, "missing argument for '%d'", at: 6),
        ErrorCase("wins == %d", ["three"], PredicateParseError.unsupportedArgument, "'%d' expects an integer, got String", at: 8),
        ErrorCase("wins == %f", ["x"], PredicateParseError.unsupportedArgument, "'%f' expects a floating-point number, got String", at: 8),
        ErrorCase("wins == %s", [1], PredicateParseError.unsupportedArgument, "'%s' expects a string, got Int", at: 8),
        ErrorCase("%K == 1", [5], PredicateParseError.unsupportedArgument, "'%K' expects a key path string or a Swift key path, got Int", at: 0),
        ErrorCase("%K == 1", ["a..b"], PredicateParseError.unsupportedArgument, #"'%K' expects a key path, got "a..b""#, at: 0),
        ErrorCase("x == %@", [Opaque()], PredicateParseError.unsupportedArgument, "Opaque values cannot be used in a predicate", at: 5),
        ErrorCase("x == %@", [[Opaque()]], PredicateParseError.unsupportedArgument,
                  "Array<Opaque> values cannot be used in a predicate", at: 5),
        ErrorCase("name MATCHES 'a('", [], PredicateParseError.invalidRegularExpression,
                  #"invalid regular expression "a(": expected ')'"#, at: 13),
        ErrorCase("name MATCHES %@", ["[z-a]"], PredicateParseError.invalidRegularExpression,
                  #"invalid regular expression "[z-a]": character 'z' must compare less than or equal to 'a'"#, at: 13),
        ErrorCase("wins + 1 > 3", [], PredicateParseError.unsupportedSyntax, "arithmetic ('+') is not supported", at: 5),
        ErrorCase("wins > 3 * 2", [], PredicateParseError.unsupportedSyntax, "arithmetic ('*') is not supported", at: 9),
        ErrorCase("wins > -goals", [], PredicateParseError.unsupportedSyntax, "arithmetic ('-') is not supported", at: 7),
        ErrorCase("FUNCTION(name, 'foo') == 1", [], PredicateParseError.unsupportedSyntax,
                  #"FUNCTION is supported only with "valueForKeyPath:" and "valueForKey:""#, at: 0),
        ErrorCase("lower(name) == 'a'", [], PredicateParseError.unsupportedSyntax, "function calls ('lower(...)') are not supported", at: 0),
        ErrorCase("players[FIRST].name == 'a'", [], PredicateParseError.unsupportedSyntax, "subscripts are not supported", at: 7),
        ErrorCase("players.@distinctUnionOfObjects.name == 'a'", [], PredicateParseError.unsupportedSyntax,
                  "collection operator '@distinctUnionOfObjects' is not supported", at: 8),
        ErrorCase("players.@count IN 'abc'", [], PredicateParseError.unsupportedSyntax,
                  "collection operator '@count' on the left of IN with a string", at: 15),
        ErrorCase("wins BETWEEN {1, 2, 3}", "BETWEEN expects a list of two values", at: 13),
        ErrorCase("wins BETWEEN 1", "BETWEEN expects a list of two values", at: 13),
        ErrorCase("wins BETWEEN %@", [[1, 2, 3]], PredicateParseError.unsupportedArgument, "BETWEEN expects an array of two values", at: 13),
        ErrorCase("SUBQUERY(players, p, p.x == 1).@count > 0", "expected a variable", at: 18),
        ErrorCase("SUBQUERY(players, $p, $p.x == 1.@count > 0", "expected ')'", at: 31),
        ErrorCase("SUBQUERY(players, $p, $p.x == 1).name > 0", [], PredicateParseError.unsupportedSyntax,
                  "only '.@count' may follow SUBQUERY(...)", at: 33),
        ErrorCase("x == CAST('soon', 'NSDate')", #"cannot convert "soon" to NSDate"#, at: 10),
        ErrorCase("x == CAST('1.5abc', 'NSDecimalNumber')", #"cannot convert "1.5abc" to NSDecimalNumber"#, at: 10),
        ErrorCase("x == CAST('1', 'NSString')", [], PredicateParseError.unsupportedSyntax, "CAST to 'NSString' is not supported", at: 15),
        ErrorCase("x == CAST('1', NSDate)", "expected a type name string", at: 15),
        ErrorCase("SELF == CAST('x-coredata://S/Team/p1', 'NSManagedObjectID')", [], PredicateParseError.unsupportedSyntax,
                  "object IDs cannot be parsed from a format string; pass the object or its ID as a %@ argument", at: 8),
        // Offsets count Unicode scalars: `é` written as e + U+0301 is one Character but two scalars.
        ErrorCase("name == 'e\u{301}' )", "unexpected ')'", at: 13),
        ErrorCase("flag == '🇫🇷' ==", "unexpected '=='", at: 13),
        ErrorCase("", "expected an expression", at: 0),
    ]

    @Test(arguments: errors)
    func rejects(_ testCase: ErrorCase) {
        do {
            let predicate = try FetchPredicate(format: testCase.format, argumentArray: testCase.arguments.map { $0 as Any? })
            Issue.record("parsed as \(predicate.predicateFormat)")
        } catch let error as PredicateParseError {
            #expect(error.message == testCase.message)
            #expect(error.offset == testCase.offset)
            #expect(error.code == testCase.code)
            #expect(error.format == testCase.format)
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }

    /// Nesting is limited so that hostile input cannot overflow the stack.
    @Test func deepNestingIsRefusedNotACrash() throws {
        let depth = 4 * FetchPredicate.maximumNestingDepth + 8  // the parser's maximumDepth
        // The limit counts every level: parentheses, NOT, lists and the operands inside them.
        let deepestAccepted = String(repeating: "(", count: depth - 2) + "a == 1" + String(repeating: ")", count: depth - 2)
        #expect(try FetchPredicate(format: deepestAccepted).node == T.eq("a", 1))
        for hostile in [
            String(repeating: "(", count: 100_000) + "a == 1" + String(repeating: ")", count: 100_000),
            String(repeating: "NOT ", count: 100_000) + "a == 1",
            "a IN " + String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000),
            String(repeating: "SUBQUERY(x, $x, ", count: 10_000) + "TRUEPREDICATE" + String(repeating: ").@count > 0", count: 10_000),
            "a == " + String(repeating: "CAST(", count: 100_000),
        ] {
            #expect(parseErrorCode { _ = try FetchPredicate(format: hostile) } == PredicateParseError.unsupportedSyntax)
        }
        let oneTooDeep = String(repeating: "(", count: depth - 1) + "a == 1" + String(repeating: ")", count: depth - 1)
        #expect(parseErrorCode { _ = try FetchPredicate(format: oneTooDeep) } == PredicateParseError.unsupportedSyntax)
    }

    /// The deepest input the parser accepts must fit a secondary thread's stack (512 KB on
    /// Darwin) with room to spare, even in a debug build.
    @Test func deepestAcceptedInputFitsASmallStack() async throws {
        let deepest = [
            String(repeating: "(", count: 62) + "a == 1" + String(repeating: ")", count: 62),
            String(repeating: "NOT ", count: 62) + "a == 1",
            "a IN " + String(repeating: "{", count: 62) + String(repeating: "}", count: 62),
            "a == " + String(repeating: "CAST(", count: 62) + "1" + String(repeating: ", 'NSNumber')", count: 62),
            String(repeating: "SUBQUERY(x, $x, ", count: 15) + "TRUEPREDICATE" + String(repeating: ").@count > 0", count: 15),
        ]
        let failures: [String] = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: deepest.filter { (try? FetchPredicate(format: $0)) == nil })
            }
            // ThreadSanitizer's instrumentation multiplies stack frames; the budget is for normal builds.
            thread.stackSize = (Self.runsUnderThreadSanitizer ? 4 : 1) * 384 * 1024
            thread.start()
        }
        #expect(failures.isEmpty, "refused: \(failures)")
    }

    private static var runsUnderThreadSanitizer: Bool { dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil }

    @Test func errorDescriptionNamesOffsetAndFormat() {
        #expect(throws: PredicateParseError.self) { try FetchPredicate(format: "(wins > 3 AND name == 'x'") }
        do {
            _ = try FetchPredicate(format: "(wins > 3 AND name == 'x'")
        } catch {
            #expect("\(error)" == #"expected ')' at offset 25 in "(wins > 3 AND name == 'x'""#)
            #expect(PredicateParseError.syntaxError ~= error)
        }
    }

    @Test func variadicAndArrayInitialisersAgree() throws {
        let variadic = try FetchPredicate(format: "qualifyingZone == %@ AND wins >= %d", "UEFA", 3)
        let array = try FetchPredicate(format: "qualifyingZone == %@ AND wins >= %d", argumentArray: ["UEFA", 3])
        #expect(variadic == array)
        #expect(variadic.node == .and([T.cmp(T.key("qualifyingZone"), .equalTo, T.string("UEFA")), T.cmp(T.key("wins"), .greaterThanOrEqualTo, T.int(3))]))
        #expect(try FetchPredicate(format: "wins > 1", argumentArray: nil) == FetchPredicate(format: "wins > 1"))
    }

    /// Hostile strings are values, never syntax: they come back as one string constant.
    @Test(arguments: ["'); DROP TABLE Team; --", #"" OR 1 == 1 OR name == ""#, #"\' OR TRUEPREDICATE \\"#, "a\u{0}b\nc\"d'e"])
    func hostileStringArgumentStaysAString(_ text: String) throws {
        let predicate = try FetchPredicate(format: "teamName == %@", text)
        #expect(predicate.node == T.cmp(T.key("teamName"), .equalTo, T.string(text)))
        let reparsed = try FetchPredicate(format: predicate.predicateFormat)
        #expect(reparsed == predicate)
    }

    @Test func objectArgumentsBecomeObjectConstants() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Brazil"
            team.qualifyingZone = "CONMEBOL"
            let byObject = try FetchPredicate(format: "team == %@", team)
            let byID = try FetchPredicate(format: "team == %@", team.objectID)
            #expect(byObject.node == T.cmp(T.key("team"), .equalTo, .constant(.object(team.objectID))))
            #expect(byObject == byID)
            let inList = try FetchPredicate(format: "team IN %@", [team])
            #expect(inList.node == T.cmp(T.key("team"), .in, .list([.constant(.object(team.objectID))])))

            // Printed as a cast of the URI, which does not parse back (by design: an ID needs a store).
            let uri = team.objectID.uriRepresentation().absoluteString
            #expect(byObject.predicateFormat == #"team == CAST("\#(uri)", "NSManagedObjectID")"#)
            #expect(parseErrorCode { _ = try FetchPredicate(format: byObject.predicateFormat) } == PredicateParseError.unsupportedSyntax)
        }
    }

    // MARK: - Substitution variables

    @Test func substitutesBareVariables() throws {
        let template = try FetchPredicate(format: "qualifyingZone == $ZONE AND wins >= $WINS AND coach == $NOBODY AND zone IN $ZONES")
        let bound = try template.withSubstitutionVariables(["ZONE": "UEFA", "WINS": 3, "NOBODY": nil, "ZONES": ["A", "B"], "UNUSED": 1])
        #expect(bound.predicateFormat == #"qualifyingZone == "UEFA" AND wins >= 3 AND coach == nil AND zone IN {"A", "B"}"#)
    }

    @Test func substitutionLeavesBoundAndMissingVariables() throws {
        let template = try FetchPredicate(
            format: "SUBQUERY(players, $p, $p.name == $NAME AND $p == $p).@count > $MIN AND $p.name == $p AND name == $MISSING")
        let bound = try template.withSubstitutionVariables(["p": "outer", "NAME": "Pelé", "MIN": 0])
        #expect(bound.predicateFormat ==
            #"SUBQUERY(players, $p, $p.name == "Pelé" AND $p == $p).@count > 0 AND $p.name == "outer" AND name == $MISSING"#)
    }

    @Test func substitutionSubstitutesSubqueryCollectionInOuterScope() throws {
        let template = try FetchPredicate(format: "SUBQUERY($p, $p, $p > 1).@count > 0")
        let bound = try template.withSubstitutionVariables(["p": [1, 2]])
        #expect(bound.predicateFormat == "SUBQUERY({1, 2}, $p, $p > 1).@count > 0")
    }

    @Test func substitutionRejectsUnusableValues() throws {
        let template = try FetchPredicate(format: "wins == $X")
        #expect(parseErrorCode { _ = try template.withSubstitutionVariables(["X": Opaque()]) } == PredicateParseError.unsupportedArgument)
        let between = try FetchPredicate(format: "wins BETWEEN $RANGE")
        #expect(parseErrorCode { _ = try between.withSubstitutionVariables(["RANGE": [1, 2, 3]]) } == PredicateParseError.unsupportedArgument)
        #expect(try between.withSubstitutionVariables(["RANGE": [1, 2]]).predicateFormat == "wins BETWEEN {1, 2}")
        let matches = try FetchPredicate(format: "name MATCHES $PATTERN")
        #expect(parseErrorCode { _ = try matches.withSubstitutionVariables(["PATTERN": "a("]) } == PredicateParseError.invalidRegularExpression)
        #expect(try matches.withSubstitutionVariables(["PATTERN": "a+"]).predicateFormat == #"name MATCHES "a+""#)
    }
}
