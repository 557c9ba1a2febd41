import Foundation
@testable import OpenCoreData
import Testing

// Shapes on which the SQLite store and memory once disagreed: NaN arguments, ANY/ALL/NONE on a
// single value, comparisons of two constants (`nil ==[c] 5`), NUL characters in constants. Each
// case runs three ways (SQLite, evaluate(with:), the in-memory store) on a seeded dataset of
// the differential tests (see PredicateDifferentialTests.swift), and unsaved objects are
// checked against saved twins in the same fetch.

@Suite struct PredicateAgreementTests {
    /// Dataset 0 of the differential tests' default seed, in both stores.
    static func world(keepingThings count: Int? = nil) throws -> FuzzWorld {
        var dataset = PredicateDifferentialTests.dataset(0, .init(), FuzzExclusions.current())
        if let count {
            let extra = dataset.objects(of: "PDThing").filter { $0.index >= count }.map(\.key)
            dataset = dataset.removing(Set(extra))
        }
        return try FuzzWorld(dataset, model: try PredicateDifferentialTests.makeModel())
    }

    /// Runs a predicate three ways and returns the SQLite result, recording a disagreement.
    @discardableResult
    static func agreed(_ format: String, _ arguments: [Any?] = [], entity: String = "PDThing", in world: FuzzWorld,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> FuzzOutcome {
        let template = try FetchPredicate(format: format, argumentArray: arguments)
        let fuzzCase = FuzzCase(entity: entity, template: template.node, sorts: [FetchSortDescriptor(key: "index")])
        let outcome = fuzzCase.run(in: world)
        #expect(outcome.mismatch == nil, "\(template.predicateFormat): \(outcome.mismatch?.rawValue ?? "")\n\(outcome.describe())",
                sourceLocation: sourceLocation)
        return outcome
    }

    static func indexes(_ outcome: FuzzOutcome) -> Set<Int64>? {
        if case .success(let indexes) = outcome.sqlite { return Set(indexes) }
        return nil
    }

    // MARK: NaN

    /// NaN as in Swift and `#Predicate`: equal to nothing, ordered with nothing, so only `!=` is
    /// true of it; whatever it meets (any numeric attribute, a decimal, a date, an aggregate, a
    /// count, a collection's elements, a list) and however it comes (Double, Float, Decimal,
    /// `CAST`).
    @Test func nanEqualsNothingEverywhere() throws {
        let world = try Self.world()
        let things = world.dataset.objects(of: "PDThing")
        let all = Set(things.map(\.index))
        let thingsWithItems = Set(world.dataset.objects(of: "PDItem").compactMap { $0.toOne.first?.target })
        let dblIsNil = Set(things.filter { spec in spec.attributes.contains { $0.name == "dbl" && $0.value == nil } }.map(\.index))
        let nans: [Any?] = [Double.nan, Float.nan, -Double.nan, Decimal.nan]
        let operators = ["==", "!=", "<", "<=", ">", ">="]
        var cases: [(format: String, expected: Set<Int64>)] = []
        for key in ["i16", "i32", "i64", "dbl", "flt", "dec", "flag", "level", "items.@count", "items.@sum.price",
                    "items.@avg.amount", "items.@max.price", "owner.score", "SUBQUERY(items, $i, $i.price > 0).@count"] {
            for op in operators { cases.append(("\(key) \(op) %@", op == "!=" ? all : [])) }
        }
        for op in operators {
            cases.append(("%@ \(op) dbl", op == "!=" ? all : []))
            cases.append(("NOT (dbl \(op) %@)", op == "!=" ? [] : all))
            cases.append(("ANY items.price \(op) %@", op == "!=" ? thingsWithItems : []))
            cases.append(("ALL items.price \(op) %@", op == "!=" ? all : all.subtracting(thingsWithItems)))
            cases.append(("NONE items.price \(op) %@", op == "!=" ? all.subtracting(thingsWithItems) : all))
            cases.append(("%@ \(op) %@", op == "!=" ? all : []))
            // A date at NaN seconds is NaN too.
            #expect(Self.indexes(try Self.agreed("date \(op) CAST('nan', 'NSDate')", in: world)) == (op == "!=" ? all : []))
        }
        cases += [
            ("dbl BETWEEN {%@, 1000}", []), ("dbl BETWEEN {-1000, %@}", []), ("NOT (dbl BETWEEN {%@, 1000})", all),
            ("dbl IN {%@}", []), ("dbl IN {%@, nil}", dblIsNil), ("NOT (dbl IN {%@, 1})", all.subtracting(
                things.filter { spec in spec.attributes.contains { $0.name == "dbl" && ($0.value as? Double) == 1 } }.map(\.index))),
            ("%@ IN items.price", []), ("items.price CONTAINS %@", []),
        ]
        for nan in nans {
            for (format, expected) in cases {
                let count = format.components(separatedBy: "%@").count - 1
                let outcome = try Self.agreed(format, Array(repeating: nan, count: count), in: world)
                #expect(Self.indexes(outcome) == expected, "\(format) with \(String(describing: nan))")
            }
        }
    }

    /// Within one fetch, an unsaved object matches exactly when a saved object with the same
    /// values does: the store's SQL and the context's evaluation of its changes agree.
    @Test func unsavedObjectsMatchAsTheirSavedTwins() throws {
        let stack = try TestStack(.sqlite, model: try PredicateDifferentialTests.makeModel())
        let doubles: [Double?] = [nil, -1, 0, 1.5, .infinity, -.infinity]
        let setUp = stack.newContext()
        try setUp.performAndWait {
            for (index, value) in doubles.enumerated() {
                let thing = PDThing(context: setUp)
                thing.index = Int64(index)
                thing.dbl = value
                thing.dec = value.flatMap { $0.isFinite ? Decimal($0) : nil }
                thing.str = index.isMultiple(of: 2) ? "a" : nil
            }
            try setUp.save()
        }
        let context = stack.newContext()
        let formats = ["dbl == %@", "dbl != %@", "dbl < %@", "dbl <= %@", "dbl > %@", "dbl >= %@", "dec == %@", "dec != %@",
                       "dec < %@", "dbl BETWEEN {%@, 5}", "dbl IN {%@, nil}", "NOT (dbl IN {%@})", "NOT (dbl > %@)",
                       "NOT (dbl != %@)", "%@ < dbl", "items.@count != %@", "%@ == %@"]
        for format in formats {
            for argument in [Double.nan, Float.nan, 5] as [Any] {
                let count = format.components(separatedBy: "%@").count - 1
                let predicate = try FetchPredicate(format: format, argumentArray: Array(repeating: argument, count: count))
                let disagreeing: [Int] = try context.performAndWait {
                    context.reset()
                    for (index, value) in doubles.enumerated() {
                        let twin = PDThing(context: context)
                        twin.index = Int64(100 + index)
                        twin.dbl = value
                        twin.dec = value.flatMap { $0.isFinite ? Decimal($0) : nil }
                        twin.str = index.isMultiple(of: 2) ? "a" : nil
                    }
                    let request = PDThing.fetchRequest()
                    request.predicate = predicate
                    let matching = Set(try context.fetch(request).map(\.index))
                    return doubles.indices.filter { matching.contains(Int64($0)) != matching.contains(Int64(100 + $0)) }
                }
                #expect(disagreeing.isEmpty, "\(predicate.predicateFormat): saved and unsaved twins differ for values \(disagreeing.map { doubles[$0] })")
            }
        }
    }

    // MARK: Modifiers

    /// `ANY`, `ALL` and `NONE` need a collection: on a constant or a `SUBQUERY(…).@count` every
    /// side refuses the predicate (Core Data raises); on a list of constants they agree.
    @Test func modifiersNeedACollection() throws {
        let world = try Self.world(keepingThings: 4)
        for format in ["ANY 5 == 5", "ALL 5 != 3", "NONE nil == nil", "ANY 'a' BEGINSWITH 'a'", "NONE %@ < 1",
                       "ANY SUBQUERY(items, $i, $i.amount > 0).@count > 0", "NONE SUBQUERY(items, $i, $i.amount > 0).@count == 0",
                       "ALL SUBQUERY(tags, $t, $t.weight > 0).@count >= 0", "SUBQUERY(items, $i, ANY 1 == 1).@count > 0"] {
            let outcome = try Self.agreed(format, [2.5], in: world)
            #expect(outcome.allFailed, "\(format) was accepted: \(outcome.describe())")
            if case .failure(let error) = outcome.sqlite { #expect(error.message.contains("ANY, ALL and NONE"), "\(error.message)") }
        }
        let all = Set(world.dataset.objects(of: "PDThing").map(\.index))
        for (format, expected) in [("ANY {1, 2} == 2", all), ("ALL {1, 2} == 2", []), ("NONE {1, 2} == 3", all),
                                   ("ANY {nil, 'a'} ==[c] 'A'", all), ("ALL {} == 1", all), ("NONE {nil} == nil", [])] {
            #expect(Self.indexes(try Self.agreed(format, in: world)) == expected, "\(format)")
        }
    }

    // MARK: Constants

    /// Every comparison of two constants, with and without `[c]`/`[cd]`, gives one answer on
    /// every side (`nil ==[c] 5` was true in SQL: folding turned 5 into NULL).
    @Test func comparisonsOfTwoConstantsAgree() throws {
        let world = try Self.world(keepingThings: 3)
        let constants: [Any?] = [nil, 5, 5.0, -1, 2.5, Double.infinity, true, "a", "A", "é", "5",
                                 Date(timeIntervalSinceReferenceDate: 5), Data([5]), Decimal(5), [1, 5], [nil, "a"]]
        let operators = ["==", "!=", "<", ">=", "BEGINSWITH", "CONTAINS", "IN"]
        var compared = 0
        for lhs in constants {
            for rhs in constants {
                for op in operators {
                    for options in ["", "[cd]"] {
                        let format = "%@ \(op)\(options) %@"
                        guard let template = try? FetchPredicate(format: format, lhs as Any, rhs as Any) else { continue }
                        let fuzzCase = FuzzCase(entity: "PDThing", template: template.node, sorts: [FetchSortDescriptor(key: "index")])
                        let outcome = fuzzCase.run(in: world)
                        #expect(outcome.mismatch == nil, "\(template.predicateFormat)\n\(outcome.describe())")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 1000)
    }

    /// A string constant holding U+0000 is refused wherever it stands: SQLite would cut it short.
    @Test func stringsWithNULAreRefusedOnEitherSide() throws {
        let world = try Self.world(keepingThings: 3)
        let nul = "a\u{0}b"
        for (format, arguments) in [("%@ == 'a'", [nul]), ("'a' == %@", [nul]), ("%@ IN {'a'}", [nul]), ("str IN %@", [["x", nul]]),
                                    ("%@ < str", [nul]), ("str ==[c] %@", [nul]), ("ANY items.label == %@", [nul]),
                                    ("SUBQUERY(items, $i, $i.label BEGINSWITH %@).@count > 0", [nul]), ("%@ IN items.label", [nul]),
                                    ("NOT (%@ != nil)", [nul])] as [(String, [Any?])] {
            let outcome = try Self.agreed(format, arguments, in: world)
            #expect(outcome.allFailed, "\(format) was accepted: \(outcome.describe())")
            if case .failure(let error) = outcome.sqlite { #expect(error.message.contains("NUL"), "\(error.message)") }
        }
    }
}
