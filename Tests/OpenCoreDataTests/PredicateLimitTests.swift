import Foundation
@testable import OpenCoreData
import Testing

// What a hostile or careless predicate costs: a MATCHES pattern that backtracks exponentially,
// predicates built in code nested without bound, and predicates too wide or too deep for
// SQLite's own limits. Each must answer (the same in SQL and in memory) or fail with an error
// that names the limit, on any thread.

/// Runs `body` on a thread with a stack of `kilobytes` (four times as much under
/// ThreadSanitizer, whose instrumentation multiplies stack frames).
func onSmallStack<T: Sendable>(kilobytes: Int, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        let underThreadSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil
        thread.stackSize = (underThreadSanitizer ? 4 : 1) * kilobytes * 1024
        thread.start()
    }
}

@Suite struct RegularExpressionLimitTests {
    /// The error a fetch with `predicate` throws on each store, with a saved and an unsaved
    /// object holding `value`, or nil when it does not throw.
    static func fetchErrors(_ predicate: FetchPredicate, value: String) throws -> [String: FetchRequestError?] {
        var errors: [String: FetchRequestError?] = [:]
        for kind in StoreKind.withPostgres {
            let stack = try TestStack(kind, model: try PredicateDifferentialTests.makeModel())
            let context = stack.newContext()
            try context.performAndWait {
                PDThing(context: context).str = value
                try context.save()
            }
            for pending in [false, true] {
                errors["\(kind)\(pending ? " with an unsaved object" : "")"] = context.performAndWait {
                    let request = PDThing.fetchRequest()
                    request.predicate = predicate
                    if pending { PDThing(context: context).str = value }
                    defer { context.rollback() }
                    do {
                        _ = try context.fetch(request)
                        return nil
                    } catch let error as FetchRequestError {
                        return error
                    } catch {
                        return FetchRequestError(FetchRequestError.unknownKeyPath, "another error: \(error)")
                    }
                }
            }
        }
        return errors
    }

    /// `(a+)+b` against thirty `a`s would backtrack for minutes; it stops at the step limit in
    /// memory, in SQL and for unsaved objects, with the same error.
    @Test(.timeLimit(.hang))
    func catastrophicBacktrackingStopsWithAnError() throws {
        let start = ContinuousClock.now
        for pattern in ["(a+)+b", "(a|aa)+b"] {
            let predicate = try FetchPredicate(format: "str MATCHES %@", pattern)
            for (place, error) in try Self.fetchErrors(predicate, value: String(repeating: "a", count: 30)) {
                #expect(error?.code == FetchRequestError.regularExpressionTooComplex, "\(pattern) on \(place): \(String(describing: error))")
                #expect(error?.message.contains("\(FetchPredicate.maximumRegularExpressionSteps) backtracking steps") == true)
            }
            #expect(predicate.evaluate(with: ["str": String(repeating: "a", count: 30)]) == false)
        }
        // Eight fetches and two evaluations, each stopped at the limit: seconds, not hours.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    /// A value long enough to exhaust ICU's backtracking memory (where `NSRegularExpression`
    /// alone answers "no match") reports the same error rather than a wrong answer.
    @Test func exhaustedBacktrackingMemoryIsAnError() throws {
        let predicate = try FetchPredicate(format: #"str MATCHES '(\\w+\\s?)*'"#)
        let value = String(repeating: "abcde fghij ", count: 100_000)
        for (place, error) in try Self.fetchErrors(predicate, value: value) {
            #expect(error?.code == FetchRequestError.regularExpressionTooComplex, "\(place): \(String(describing: error))")
        }
        #expect(predicate.evaluate(with: ["str": "abcde fghij "]))
    }

    /// MATCHES is a whole-string match of an ICU pattern, whatever the pattern's end does: an
    /// alternative that matches only a prefix, an unterminated `\Q` quote, a free-spacing `#`
    /// comment, `$` before a final newline.
    @Test func wholeStringMatchAgreesEverywhere() throws {
        let world = try PredicateAgreementTests.world(keepingThings: 2)
        let cases: [(pattern: String, value: String, matches: Bool)] = [
            ("a|ab", "ab", true), ("ab|a", "ab", true), ("a", "ab", false), (#"\Qa.b"#, "a.b", true), (#"\Qa.b"#, "axb", false),
            (#"\Qa)\z"#, #"a)\z"#, true), ("(?x) a b # a comment", "ab", true), ("(?x: a b )c # c", "abc", false),
            ("(?x: a b )c", "abc", true), ("a$", "a", true), ("a$", "a\n", false), (".", "é", true), (".", "e\u{301}", false),
            ("..", "e\u{301}", true), (#"\X"#, "e\u{301}", true), ("", "", true), ("", "a", false), ("(?i)straße", "STRAßE", true),
            ("[[a-z]&&[^aeiou]]+", "xyz", true), ("[[a-z]&&[^aeiou]]+", "xaz", false), (#"\p{Lu}\d+"#, "É12", true),
        ]
        for (pattern, value, matches) in cases {
            #expect(try FetchPredicate(format: "s MATCHES %@", pattern).evaluate(with: ["s": value]) == matches,
                    "\(pattern.debugDescription) on \(value.debugDescription)")
            let outcome = try PredicateAgreementTests.agreed("%@ MATCHES %@", [value, pattern], in: world)
            #expect(PredicateAgreementTests.indexes(outcome)?.isEmpty == !matches, "\(pattern.debugDescription) on \(value.debugDescription)")
        }
        for pattern in ["a)(b", "(a", "[a", #"a\"#, "a{2,1}", "(?<=a+)b"] {
            #expect(throws: PredicateParseError.self, "\(pattern)") { try FetchPredicate(format: "str MATCHES %@", pattern) }
        }
    }
}

@Suite struct PredicateNestingLimitTests {
    static let limit = FetchPredicate.maximumNestingDepth

    static func leaf(_ n: Int = 1) -> FetchPredicate {
        .comparison(.keyPath("i16"), .greaterThan, FetchExpression(node: .constant(.integer(Int64(n)))))
    }

    /// Nested as deep as allowed, in the shapes that cost the most stack per level.
    static func deepest() -> [FetchPredicate] {
        var not = leaf(), andOr = leaf(), mixed = leaf()
        for level in 1..<limit {
            not = !not
            andOr = level.isMultiple(of: 2) ? (leaf(level) && andOr) : (leaf(level) || andOr)
            mixed = level.isMultiple(of: 2) ? !mixed : (leaf(level) && mixed)
        }
        return [not, andOr, mixed]
    }

    /// A hundred thousand `!` (or alternating `&&` and `||`) on a 512 KB stack: building,
    /// printing, comparing, fetching with and releasing the result neither crashes nor nests
    /// the tree: the builder returns a predicate that reports the limit when used.
    @Test func buildersStopAtTheLimitOnASmallStack() async throws {
        let model = try PredicateDifferentialTests.makeModel()
        let stacks = [try TestStack(.sqlite, model: model), try TestStack(.inMemory, model: model)]
        let problems: [String] = await onSmallStack(kilobytes: 512) {
            var problems: [String] = []
            var not = Self.leaf(), alternating = Self.leaf()
            for level in 0..<100_000 {
                not = !not
                alternating = level.isMultiple(of: 2) ? (alternating && Self.leaf(level)) : (Self.leaf(level) || alternating)
            }
            for (name, predicate) in [("!", not), ("&& ||", alternating), ("and", .and([not, Self.leaf()])),
                                      ("substituted", (try? not.withSubstitutionVariables(["X": 1])) ?? Self.leaf())] {
                if predicate.predicateFormat != "FALSEPREDICATE" { problems.append("\(name) prints \(predicate.predicateFormat.prefix(40))") }
                if predicate == FetchPredicate(value: false) { problems.append("\(name) equals FALSEPREDICATE") }
                if predicate.evaluate(with: ["i16": 5]) { problems.append("\(name) evaluates true") }
                for stack in stacks {
                    let context = stack.newContext()
                    let error: (any Error)? = context.performAndWait {
                        let request = PDThing.fetchRequest()
                        request.predicate = predicate
                        do { _ = try context.fetch(request); return nil } catch { return error }
                    }
                    if (error as? FetchRequestError)?.code != FetchRequestError.predicateTooDeep {
                        problems.append("\(name) on \(stack.kind): \(String(describing: error))")
                    }
                }
            }
            return problems
        }
        #expect(problems.isEmpty, "\(problems)")
        let error = #expect(throws: FetchRequestError.self) { try (!Self.deepest()[0]).validate(for: try #require(model.compiledEntity(named: "PDThing"))) }
        #expect(error?.code == FetchRequestError.predicateTooDeep)
        #expect(error?.message.contains("\(Self.limit) levels") == true)
    }

    /// Predicates as deep as allowed fit a small stack (384 KB, leaving room on a 512 KB one)
    /// for everything done with them, and SQLite (which leaves what its parser cannot nest to
    /// memory) gives the answer memory gives.
    @Test func deepestPredicatesFitASmallStack() async throws {
        let world = try PredicateAgreementTests.world(keepingThings: 10)
        let entity = try #require(world.evalContext.managedObjectModel.compiledEntity(named: "PDThing"))
        let predicates = Self.deepest()
        for predicate in predicates { #expect(predicate.depth == Self.limit) }
        nonisolated(unsafe) let unsafeWorld = world
        let problems: [String] = await onSmallStack(kilobytes: 384) {
            var problems: [String] = []
            for predicate in predicates {
                let copy = FetchPredicate(node: predicate.node)
                if copy != predicate || copy.hashValue != predicate.hashValue { problems.append("copies differ") }
                if predicate.predicateFormat.isEmpty { problems.append("no format") }
                if (try? FetchPredicate(format: predicate.predicateFormat)) != predicate {
                    problems.append("the printed form does not parse back: \(predicate.predicateFormat.prefix(60))")
                }
                if (try? predicate.withSubstitutionVariables(["X": 1])) != predicate { problems.append("substitution changed it") }
                if (try? predicate.validate(for: entity)) == nil { problems.append("does not validate") }
                let outcome = FuzzCase(entity: "PDThing", template: predicate.node, sorts: [FetchSortDescriptor(key: "index")]).run(in: unsafeWorld)
                if let mismatch = outcome.mismatch, mismatch != .fallback { problems.append("\(mismatch.rawValue): \(outcome.describe())") }
            }
            return problems
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// Parentheses, NOTs and subqueries as deep as the parser goes parse on a small stack (the
    /// parser moves deep formats to a thread of its own); one level more is refused.
    @Test func formatsAsDeepAsTheParserGoesParseOnASmallStack() async throws {
        let depth = PredicateParser.maximumDepth
        let outcomes: [String] = await onSmallStack(kilobytes: 512) {
            func parses(_ format: String) -> String {
                do { _ = try FetchPredicate(format: format); return "parsed" } catch { return "\(error)" }
            }
            let parentheses = { (count: Int) in String(repeating: "(", count: count) + "i16 == 1" + String(repeating: ")", count: count) }
            // Each SUBQUERY costs the parser four levels and the tree one.
            let subqueries = { (count: Int) in
                String(repeating: "SUBQUERY(things, $x, ", count: count) + "$x.i16 == 1" + String(repeating: ").@count > 0", count: count)
            }
            let operands = String(repeating: "(", count: depth - 2) + "i16" + String(repeating: ")", count: depth - 2) + " == 1"
            return [parses(parentheses(depth - 2)), parses(operands), parses(subqueries(Self.limit - 1)),
                    parses(parentheses(depth + 1)), parses(String(repeating: "NOT ", count: depth + 1) + "i16 == 1")]
        }
        #expect(outcomes[0] == "parsed")
        #expect(outcomes[1] == "parsed")
        #expect(outcomes[2] == "parsed", "subqueries as deep as the tree allows: \(outcomes[2])")
        #expect(outcomes[3].contains("nesting deeper than \(depth) levels"), "\(outcomes[3])")
        #expect(outcomes[4].contains("nesting deeper than"), "\(outcomes[4])")
    }

    /// An AND inside an OR inside each parenthesis nests the tree two levels per parenthesis:
    /// past the tree's limit the parser refuses the format.
    @Test func formatsNestedPastTheLimitAreRefused() throws {
        func alternating(_ parentheses: Int) -> String {
            String(repeating: "i16 == 1 OR i16 == 2 AND (", count: parentheses) + "i16 == 3" + String(repeating: ")", count: parentheses)
        }
        let accepted = try FetchPredicate(format: alternating(45))
        #expect(accepted.depth <= Self.limit)
        let error = #expect(throws: PredicateParseError.self) { try FetchPredicate(format: alternating(55)) }
        #expect(error?.code == PredicateParseError.unsupportedSyntax)
        #expect(error?.message.contains("\(Self.limit) levels") == true)
        // Arguments too: a collection nested past the limit is not a value a predicate holds.
        var nested: Any = 1
        for _ in 0..<(Self.limit + 1) { nested = [nested] }
        let argumentError = #expect(throws: PredicateParseError.self) { try FetchPredicate(format: "i16 IN %@", nested) }
        #expect(argumentError?.code == PredicateParseError.unsupportedArgument)
    }
}

@Suite struct WidePredicateTests {
    static func run(_ predicate: FetchPredicate, in world: FuzzWorld) -> FuzzOutcome {
        FuzzCase(entity: "PDThing", template: predicate.node, sorts: [FetchSortDescriptor(key: "index")]).run(in: world)
    }

    static func index(_ op: FetchPredicate.Operator, _ value: Int) -> FetchPredicate {
        .comparison(.keyPath("index"), op, FetchExpression(node: .constant(.integer(Int64(value)))))
    }

    /// `OR`s and `AND`s of thousands of comparisons (SQLite refuses an expression deeper than
    /// 1,000) run in SQL and agree with memory.
    @Test func wideAndsAndOrsRunInSQL() throws {
        let world = try PredicateAgreementTests.world()
        let things = world.dataset.objects(of: "PDThing").count
        for width in [999, 1_000, 2_500] {
            let or = FetchPredicate.or((0..<width).map { Self.index(.equalTo, $0 % 2 == 0 ? $0 : -$0) })
            let outcome = Self.run(or, in: world)
            #expect(outcome.mismatch == nil, "OR of \(width): \(outcome.describe())")
            #expect(PredicateAgreementTests.indexes(outcome) == Set((0..<Int64(things)).filter { $0.isMultiple(of: 2) }))
            let and = FetchPredicate.and((1...width).map { Self.index(.notEqualTo, $0) })
            #expect(Self.run(and, in: world).mismatch == nil, "AND of \(width)")
            let mixed = FetchPredicate.and([or, .or([.not(and), Self.index(.lessThan, 10)]), .or((0..<width).map { Self.index(.greaterThanOrEqualTo, -$0) })])
            #expect(Self.run(mixed, in: world).mismatch == nil, "mixed of \(width)")
        }
        // Equalities become one IN list, which SQLite searches instead of comparing each
        // disjunct with every other.
        let start = ContinuousClock.now
        let wide = FetchPredicate.or((0..<12_000).map { Self.index(.equalTo, $0 * 2) })
        let outcome = Self.run(wide, in: world)
        #expect(outcome.mismatch == nil, "\(outcome.describe())")
        #expect(outcome.seconds[0] < 20, "SQLite took \(outcome.seconds[0]) s")
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    /// Past SQLite's 32,766 bound arguments (a long `IN` list, or `OR`s), or deeper than its
    /// parser nests, the predicate is left to memory: the same answer, from memory.
    @Test func predicatesBeyondSQLiteLimitsAreLeftToMemory() throws {
        let world = try PredicateAgreementTests.world(keepingThings: 5)
        let values = (0..<17_000).map { $0 * 3 }
        let wideIn = try FetchPredicate(format: "index IN %@ OR i16 IN %@", values, values)
        var deep = PredicateNestingLimitTests.leaf()
        for level in 1..<60 { deep = level.isMultiple(of: 2) ? !deep : (PredicateNestingLimitTests.leaf(level) && deep) }
        let wideOr = FetchPredicate.or((0..<33_000).map { Self.index(.equalTo, $0 * 3) })
        for predicate in [wideIn, wideOr, deep] {
            let outcome = Self.run(predicate, in: world)
            #expect(outcome.mismatch == nil || outcome.mismatch == .fallback, "\(outcome.describe())")
            #expect(outcome.fellBack)
        }
    }
}
