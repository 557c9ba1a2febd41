import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

// Printing round-trips as a class: every predicate the differential fuzzer generates (each
// shape, every value pool, constructs it excludes from its SQL comparison included) prints as a
// format that parses back to an equal predicate, which prints the same again. PredicatePrinterTests
// does the same for its own random trees, which reach the rest of the grammar.

@Suite struct PredicateRoundTripTests {
    static let count = 4_000

    @Test func differentialPredicatesRoundTrip() {
        let seed = ProcessInfo.processInfo.environment["PREDICATE_SEED"].flatMap { UInt64($0) } ?? 0x0CD_F022
        // Everything the generator can make, and objects for its `$OBJ_...` variables to stand for.
        let exclusions = FuzzExclusions(names: [])
        let indexes: [String: [Int64]] = ["PDThing": [0, 1, 2], "PDOwner": [0, 1], "PDItem": [0, 1, 2], "PDTag": [0, 1]]
        let entities = [FuzzSchema.thing, FuzzSchema.owner, FuzzSchema.item, FuzzSchema.tag]
        var failures = 0
        for index in 0..<Self.count where failures < 5 {
            var generator = PredicateGenerator(seed: PDRandom.derive(seed, UInt64(index)), exclusions: exclusions, indexes: indexes)
            // The generator also makes ANDs and ORs of one or no operand, which print as what they
            // mean (that operand, TRUEPREDICATE, FALSEPREDICATE): compare with that.
            let predicate = FetchPredicate(node: Self.collapsed(generator.predicate(for: entities[index % entities.count])))
            let printed = predicate.predicateFormat
            do {
                let reparsed = try FetchPredicate(format: printed)
                if reparsed != predicate || reparsed.predicateFormat != printed {
                    failures += 1
                    Issue.record("case \(index): \(printed) came back as \(reparsed.predicateFormat)")
                }
            } catch let error as PredicateParseError where error.code == PredicateParseError.invalidRegularExpression {
                continue  // the fuzzer's invalid MATCHES patterns, which the parser refuses by design
            } catch {
                failures += 1
                Issue.record("case \(index): \(printed) does not parse: \(error)")
            }
        }
    }

    static func collapsed(_ node: FetchPredicate.Node) -> FetchPredicate.Node {
        switch node {
        case .constant: return node
        case .not(let inner): return .not(collapsed(inner))
        case .and(let parts) where parts.count < 2: return parts.first.map(collapsed) ?? .constant(true)
        case .or(let parts) where parts.count < 2: return parts.first.map(collapsed) ?? .constant(false)
        case .and(let parts): return .and(parts.map(collapsed))
        case .or(let parts): return .or(parts.map(collapsed))
        case .comparison(var comparison):
            func expression(_ node: FetchExpression.Node) -> FetchExpression.Node {
                switch node {
                case .subqueryCount(let collection, let variable, let predicate):
                    .subqueryCount(collection: collection, variable: variable, predicate: collapsed(predicate))
                case .subquery(let collection, let variable, let predicate):
                    .subquery(collection: collection, variable: variable, predicate: collapsed(predicate))
                default: node
                }
            }
            comparison.lhs = expression(comparison.lhs)
            comparison.rhs = expression(comparison.rhs)
            return .comparison(comparison)
        }
    }

    /// Key paths given as `%K` arguments, with keys no identifier spells.
    @Test(arguments: ["first name", "e-mail", "a/b", "@foo", "in", "1st", "x y.z", "naïve key", "tab\there", "quote\"d", "SELF"])
    func oddKeysRoundTrip(key: String) throws {
        for format in ["%K == 1", "ANY %K.%K > 1", "$x.%K == 1", "SUBQUERY(%K, $v, $v.%K == 1).@count > 0", "%K.@count == 1"] {
            let arguments: [Any?] = Array(repeating: key, count: format.components(separatedBy: "%K").count - 1)
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let printed = predicate.predicateFormat
            let reparsed = try FetchPredicate(format: printed)
            #expect(reparsed == predicate, "\(format) with \(key.debugDescription) printed as \(printed)")
            #expect(reparsed.predicateFormat == printed)
        }
    }

    /// Equal predicates hash alike, whatever number type holds a value.
    @Test func numericallyEqualConstantsAreEqualPredicates() throws {
        let forms: [FetchPredicate] = [
            try FetchPredicate(format: "x == 10"), try FetchPredicate(format: "x == 10.0"), try FetchPredicate(format: "x == %@", 10.0),
            try FetchPredicate(format: "x == %@", Decimal(10)), try FetchPredicate(format: "x == %d", Int16(10)),
        ]
        for form in forms {
            #expect(form == forms[0], "\(form.predicateFormat)")
            #expect(form.hashValue == forms[0].hashValue)
        }
        #expect(try FetchPredicate(format: "x == YES") == FetchPredicate(format: "x == 1"))
        #expect(try FetchPredicate(format: "x == 10.5") != FetchPredicate(format: "x == 10"))
        #expect(try FetchPredicate(format: "x == %@", Double.nan) == FetchPredicate(format: "x == %@", Double.nan))
        #expect(try FetchPredicate(format: "x == '10'") != FetchPredicate(format: "x == 10"))
    }
}
