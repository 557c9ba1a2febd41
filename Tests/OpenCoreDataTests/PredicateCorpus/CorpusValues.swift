import Foundation

// Predicates evaluated on plain values with evaluate(with:): strings, numbers, arrays and
// dictionaries, the way the guide filters arrays and evaluates single objects.

private typealias V = CorpusValue

enum ValueCorpus {
    static let all: [ValueEntry] = evaluating + arrays + nullValues + comparisons + strings + emptyStrings + aggregates
        + membership + collectionOperators + subqueries + compounds + keyPaths

    private static func string(_ text: String) -> V { .value(text) }
    private static func int(_ value: Int) -> V { .value(value) }
    private static func strings(_ texts: [String]) -> V { .value(texts) }
    private static func ints(_ values: [Int]) -> V { .value(values) }

    // MARK: Using Predicates

    static let evaluating: [ValueEntry] = [
        // "predicateWithFormat:@"SELF IN %@", @[@"Stig", @"Shaffiq", @"Chris"]] ... evaluateWithObject:@"Shaffiq" ... result = YES"
        ValueEntry("SELF IN %@", [["Stig", "Shaffiq", "Chris"]], on: string("Shaffiq"), is: true, .using("Evaluating Predicates")),
        ValueEntry("SELF IN %@", [["Stig", "Shaffiq", "Chris"]], on: string("Ben"), is: false, .using("Evaluating Predicates")),
        ValueEntry("SELF IN %@", [Set(["Stig", "Shaffiq"])], on: string("Stig"), is: true, .syntax("Aggregate Operations")),
        ValueEntry("SELF == %@", ["Shaffiq"], on: string("Shaffiq"), is: true, .using("Evaluating Predicates")),
    ]

    /// "Using Predicates with Arrays": @"Nick", @"Ben", @"Adam", @"Melissa" filtered by
    /// `SELF beginswith[c] 'a'` (Adam) and `SELF contains[c] 'e'` (Ben, Melissa).
    static let arrays: [ValueEntry] = ["Nick", "Ben", "Adam", "Melissa"].flatMap { (name: String) -> [ValueEntry] in
        [
            ValueEntry("SELF beginswith[c] 'a'", on: string(name), is: name == "Adam", .using("Using Predicates with Arrays")),
            ValueEntry("SELF contains[c] 'e'", on: string(name), is: name == "Ben" || name == "Melissa", .using("Using Predicates with Arrays")),
            ValueEntry("SELF beginswith 'a'", on: string(name), is: false, .syntax("String Comparisons")),
        ]
    }

    // MARK: Null values

    static let turner = V.dictionary(["lastName": .value("Turner")])
    static let ballard = V.dictionary(["firstName": .value("Ben"), "lastName": .value("Ballard"),
                                       "birthday": .value(Date(timeIntervalSince1970: 70_191_932))])

    /// "Using Null Values" and "Testing for Null": a comparison does not match null, except
    /// with nil; a test for null matches a missing key and NSNull.
    static let nullValues: [ValueEntry] = [
        ValueEntry("firstName like %@", ["Ben"], on: turner, is: false, .using("Using Null Values")),
        ValueEntry("firstName like %@", ["Ben"], on: ballard, is: true, .using("Using Null Values")),
        ValueEntry("birthday > %@", [Date(timeIntervalSince1970: 0)], on: turner, is: false, .using("Using Null Values")),
        ValueEntry("birthday > %@", [Date(timeIntervalSince1970: 0)], on: ballard, is: true, .using("Using Null Values")),
        ValueEntry("(firstName == %@) || (firstName = nil)", ["Ben"], on: turner, is: true, .using("Testing for Null")),
        ValueEntry("(firstName == %@) || (firstName = nil)", ["Ben"], on: ballard, is: true, .using("Testing for Null")),
        ValueEntry("firstName = nil", on: .dictionary([:]), is: true, .using("Testing for Null")),
        ValueEntry("firstName = nil", on: .dictionary(["firstName": .nsNull]), is: true, .using("Testing for Null")),
        ValueEntry("firstName = nil", on: ballard, is: false, .using("Testing for Null")),
        ValueEntry("$value == nil", on: string("x"), variables: ["value": .null], is: true, .using("Using Null Values")),
        ValueEntry("$value == nil", on: string("x"), variables: ["value": string("a")], is: false, .using("Using Null Values")),
        ValueEntry("SELF == nil", on: .null, is: true, .using("Using Null Values")),
        ValueEntry("SELF != nil", on: string("x"), is: true, .using("Using Null Values")),
        ValueEntry("birthday < %@", [Date(timeIntervalSince1970: 0)], on: turner, is: false, .using("Using Null Values")),
        ValueEntry("NOT (birthday > %@)", [Date(timeIntervalSince1970: 0)], on: turner, is: true, .using("Using Null Values")),
    ]

    // MARK: Basic comparisons

    /// Every spelling of every comparison, on a number below, at and above 7.
    static let comparisons: [ValueEntry] = comparisonAnswers.flatMap { (spelling: String, answers: [Bool]) -> [ValueEntry] in
        zip([6, 7, 8], answers).map { (value: Int, answer: Bool) -> ValueEntry in
            ValueEntry("SELF \(spelling) 7", on: int(value), is: answer, .syntax("Basic Comparisons"))
        }
    } + betweenAndTypes

    private static let comparisonAnswers: [(String, [Bool])] = [
        ("=", [false, true, false]), ("==", [false, true, false]), (">=", [false, true, true]), ("=>", [false, true, true]),
        ("<=", [true, true, false]), ("=<", [true, true, false]), (">", [false, false, true]), ("<", [true, false, false]),
        ("!=", [true, false, true]), ("<>", [true, false, true]),
    ]

    private static let betweenAndTypes: [ValueEntry] = [
        // "BETWEEN: ... between, or equal to either of, the values specified in the right-hand side."
        ValueEntry("SELF BETWEEN {1, 10}", on: int(1), is: true, .syntax("Basic Comparisons")),
        ValueEntry("SELF BETWEEN {1, 10}", on: int(10), is: true, .syntax("Basic Comparisons")),
        ValueEntry("SELF BETWEEN {1, 10}", on: int(5), is: true, .syntax("Basic Comparisons")),
        ValueEntry("SELF BETWEEN {1, 10}", on: int(0), is: false, .syntax("Basic Comparisons")),
        ValueEntry("SELF BETWEEN {1, 10}", on: int(11), is: false, .syntax("Basic Comparisons")),
        ValueEntry("SELF BETWEEN %@", [[1, 10]], on: int(10), is: true, .syntax("Basic Comparisons")),
        ValueEntry("SELF BETWEEN {0, 33}", on: .value(33.0), is: true, .syntax("Basic Comparisons")),
        ValueEntry("SELF BETWEEN {'b', 'd'}", on: string("c"), is: true, .syntax("Basic Comparisons")),
        // Numbers compare by value whatever their type, as NSNumber does.
        ValueEntry("SELF == 10", on: .value(10.0), is: true, .reference("NSNumber isEqual(to:)")),
        ValueEntry("SELF == 10.0", on: int(10), is: true, .reference("NSNumber isEqual(to:)")),
        ValueEntry("SELF == 10.5", on: int(10), is: false, .reference("NSNumber isEqual(to:)")),
        ValueEntry("SELF == YES", on: .value(true), is: true, .creating("Boolean Values")),
        ValueEntry("SELF == %@", [true], on: .value(true), is: true, .creating("Boolean Values")),
        ValueEntry("SELF == 1", on: .value(true), is: true, .reference("NSNumber isEqual(to:)")),
        ValueEntry("SELF == NO", on: .value(true), is: false, .creating("Boolean Values")),
        ValueEntry("SELF > %@", [Date(timeIntervalSince1970: 0)], on: .value(Date(timeIntervalSince1970: 1)), is: true,
                   .syntax("Basic Comparisons")),
        ValueEntry("SELF < 'b'", on: string("a"), is: true, .syntax("Basic Comparisons")),
        ValueEntry("TRUEPREDICATE", on: string("x"), is: true, .syntax("Boolean Value Predicates")),
        ValueEntry("FALSEPREDICATE", on: string("x"), is: false, .syntax("Boolean Value Predicates")),
    ]

    // MARK: String comparisons

    /// "String comparisons are, by default, case and diacritic sensitive."
    static let strings: [ValueEntry] = stringAnswers.map { (format: String, value: String, answer: Bool) -> ValueEntry in
        ValueEntry(format, on: string(value), is: answer, .syntax("String Comparisons"))
    }

    private static let stringAnswers: [(String, String, Bool)] = [
        ("SELF BEGINSWITH 'ab'", "abc", true), ("SELF BEGINSWITH 'AB'", "abc", false), ("SELF BEGINSWITH[c] 'AB'", "abc", true),
        ("SELF BEGINSWITH 'bc'", "abc", false), ("SELF ENDSWITH 'bc'", "abc", true), ("SELF ENDSWITH 'ab'", "abc", false),
        ("SELF ENDSWITH[c] 'BC'", "abc", true), ("SELF CONTAINS 'b'", "abc", true), ("SELF CONTAINS 'B'", "abc", false),
        ("SELF CONTAINS[c] 'B'", "abc", true), ("SELF CONTAINS 'abcd'", "abc", false),
        ("SELF CONTAINS 'e'", "café", false), ("SELF CONTAINS[d] 'e'", "café", true), ("SELF ENDSWITH[cd] 'E'", "café", true),
        ("SELF ==[d] 'cafe'", "café", true), ("SELF == 'cafe'", "café", false), ("SELF ==[c] 'CAFÉ'", "café", true),
        ("SELF contains[cd] 'citroen'", "Citroën", true), ("SELF contains 'citroen'", "Citroën", false),
        ("SELF contains[cd] 'itroen'", "Citroën", true),
        // LIKE: "? and * are allowed as wildcard characters, where ? matches 1 character and * matches 0 or more characters."
        ("SELF LIKE 'a?c'", "abc", true), ("SELF LIKE 'a?c'", "ac", false), ("SELF LIKE 'a?c'", "abbc", false),
        ("SELF LIKE 'a*c'", "ac", true), ("SELF LIKE 'a*c'", "abbbc", true), ("SELF LIKE 'a*c'", "abcd", false),
        ("SELF LIKE 'abc'", "abc", true), ("SELF LIKE 'ab'", "abc", false), ("SELF LIKE[c] 'A*'", "abc", true),
        ("SELF LIKE 'A*'", "abc", false), ("SELF LIKE '*'", "", true), ("SELF LIKE 'work*'", "workers", true),
        ("SELF LIKE[cd] 'mark'", "Märk", true),
        // MATCHES: "a regex-style comparison according to ICU v3"; the whole string must match.
        ("SELF MATCHES '[a-z]+'", "abc", true), ("SELF MATCHES '[a-z]+'", "abc1", false), ("SELF MATCHES 'b'", "abc", false),
        ("SELF MATCHES 'a.*'", "abc", true), ("SELF MATCHES[c] 'ABC'", "abc", true), ("SELF MATCHES 'ABC'", "abc", false),
        (#"SELF MATCHES '\\d{9}[\\dX]'"#, "123456789X", true), (#"SELF MATCHES '\\d{9}[\\dX]'"#, "12345X", false),
        (#"SELF MATCHES '\\d{9}[\\dX]'"#, "1234567890X", false), ("SELF MATCHES 'work.*'", "workers", true),
    ]

    /// `range(of:)`: "Returns {NSNotFound, 0} if searchString is not found or is empty ("")."
    /// BEGINSWITH, ENDSWITH and CONTAINS with an empty string match no string.
    static let emptyStrings: [ValueEntry] = ["BEGINSWITH", "ENDSWITH", "CONTAINS"].flatMap { (op: String) -> [ValueEntry] in
        ["", "[c]", "[d]", "[cd]"].flatMap { (options: String) -> [ValueEntry] in
            ["abc", ""].map { (value: String) -> ValueEntry in
                ValueEntry("SELF \(op)\(options) ''", on: string(value), is: false, .reference("NSString range(of:)"))
            }
        } + [
            ValueEntry("SELF \(op) %@", [""], on: string("abc"), is: false, .reference("NSString range(of:)")),
            ValueEntry("NOT SELF \(op) ''", on: string("abc"), is: true, .reference("NSString range(of:)")),
            ValueEntry("name \(op) ''", on: .dictionary(["name": string("abc")]), is: false, .reference("NSString range(of:)")),
            ValueEntry("ANY SELF \(op) ''", on: strings(["a", ""]), is: false, .reference("NSString range(of:)")),
            ValueEntry("SELF \(op)[d] %@", ["\u{301}"], on: string("e\u{301}"), is: false, .reference("NSString range(of:)")),
        ]
    }

    // MARK: Aggregate operations

    static let children = V.dictionary(["children": .array([.dictionary(["age": .value(10)]), .dictionary(["age": .value(20)])])])
    static let adults = V.dictionary(["children": .array([.dictionary(["age": .value(20)]), .dictionary(["age": .value(30)])])])
    static let childless = V.dictionary(["children": .array([])])

    /// "ANY children.age < 18", "ALL children.age < 18", "NONE children.age < 18. This is
    /// logically equivalent to NOT (ANY ...)."
    static let aggregates: [ValueEntry] = [
        ValueEntry("ANY children.age < 18", on: children, is: true, .syntax("Aggregate Operations")),
        ValueEntry("SOME children.age < 18", on: children, is: true, .syntax("Aggregate Operations")),
        ValueEntry("ALL children.age < 18", on: children, is: false, .syntax("Aggregate Operations")),
        ValueEntry("NONE children.age < 18", on: children, is: false, .syntax("Aggregate Operations")),
        ValueEntry("NOT (ANY children.age < 18)", on: children, is: false, .syntax("Aggregate Operations")),
        ValueEntry("ANY children.age < 18", on: adults, is: false, .syntax("Aggregate Operations")),
        ValueEntry("ALL children.age > 12", on: adults, is: true, .reference("NSPredicate")),
        ValueEntry("ANY children.age > 12", on: children, is: true, .reference("NSPredicate")),
        ValueEntry("ALL children.age > 12", on: children, is: false, .reference("NSPredicate")),
        ValueEntry("NONE children.age < 18", on: adults, is: true, .syntax("Aggregate Operations")),
        ValueEntry("ANY children.age < 18", on: childless, is: false, .syntax("Aggregate Operations")),
        ValueEntry("NONE children.age < 18", on: childless, is: true, .syntax("Aggregate Operations")),
        ValueEntry("ANY SELF > 2", on: ints([1, 3]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("ANY SELF > 2", on: ints([1, 2]), is: false, .syntax("Aggregate Operations")),
        ValueEntry("ALL SELF > 0", on: ints([1, 2]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("ALL SELF > 1", on: ints([1, 2]), is: false, .syntax("Aggregate Operations")),
        ValueEntry("NONE SELF == 3", on: ints([1, 2]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("ANY tags == 'b'", on: .dictionary(["tags": strings(["a", "b"])]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("ANY tags BEGINSWITH[c] 'B'", on: .dictionary(["tags": strings(["a", "bc"])]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("ALL tags BEGINSWITH 'a'", on: .dictionary(["tags": strings(["ab", "ac"])]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("ANY scores BETWEEN {5, 6}", on: .dictionary(["scores": ints([1, 5])]), is: true, .syntax("Aggregate Operations")),
    ]

    // MARK: IN and CONTAINS

    /// "IN: Equivalent to an SQL IN operation ... The collection may be an array, a set, or a
    /// dictionary—in the case of a dictionary, its values are used." "CONTAINS and IN serve both
    /// as aggregate operators and string operators, depending on the types of their arguments."
    static let membership: [ValueEntry] = [
        ValueEntry("name IN { 'Ben', 'Melissa', 'Nick' }", on: .dictionary(["name": string("Ben")]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("name IN { 'Ben', 'Melissa', 'Nick' }", on: .dictionary(["name": string("Bob")]), is: false, .syntax("Aggregate Operations")),
        ValueEntry("name IN %@", [["a": "Ben", "b": "Nick"]], on: .dictionary(["name": string("Nick")]), is: true, .syntax("Aggregate Operations")),
        ValueEntry("name IN %@", [["a": "Ben", "b": "Nick"]], on: .dictionary(["name": string("a")]), is: false, .syntax("Aggregate Operations")),
        ValueEntry("SELF IN {1, 2, 3}", on: int(2), is: true, .syntax("Aggregate Operations")),
        ValueEntry("SELF IN {1, 2, 3}", on: int(4), is: false, .syntax("Aggregate Operations")),
        ValueEntry("SELF IN {}", on: int(4), is: false, .syntax("Aggregate Operations")),
        ValueEntry("SELF IN[c] {'A', 'B'}", on: string("a"), is: true, .syntax("String Comparisons")),
        ValueEntry("SELF IN {nil, 1}", on: .null, is: true, .using("Using Null Values")),
        ValueEntry("SELF CONTAINS 2", on: ints([1, 2, 3]), is: true, .bnf("Operations")),
        ValueEntry("SELF CONTAINS 2", on: ints([1, 3]), is: false, .bnf("Operations")),
        ValueEntry("2 IN SELF", on: ints([1, 2, 3]), is: true, .bnf("Operations")),
        ValueEntry("4 IN SELF", on: ints([1, 2, 3]), is: false, .bnf("Operations")),
        ValueEntry("tags CONTAINS 'a'", on: .dictionary(["tags": strings(["a", "b"])]), is: true, .bnf("Operations")),
        ValueEntry("tags CONTAINS 'a'", on: .dictionary(["tags": strings(["ab", "b"])]), is: false, .bnf("Operations")),
        ValueEntry("'a' IN tags", on: .dictionary(["tags": strings(["a", "b"])]), is: true, .bnf("Operations")),
        ValueEntry("'a' IN tags", on: .dictionary(["tags": strings(["ab"])]), is: false, .bnf("Operations")),
        ValueEntry("NOT 'c' IN tags", on: .dictionary(["tags": strings(["a", "b"])]), is: true, .bnf("Operations")),
        ValueEntry("tags CONTAINS 'a'", on: .dictionary(["tags": string("cat")]), is: true, .bnf("Operations")),
        ValueEntry("SELF CONTAINS 'b'", on: string("abc"), is: true, .bnf("Operations")),
        ValueEntry("'b' IN SELF", on: string("abc"), is: true, .bnf("Operations")),
        ValueEntry("'d' IN SELF", on: string("abc"), is: false, .bnf("Operations")),
        ValueEntry("'B' IN[c] SELF", on: string("abc"), is: true, .bnf("Operations")),
    ]

    // MARK: Collection operators

    static let numbers = V.dictionary(["numbers": ints([1, 5, 3])])
    static let items = V.dictionary(["items": .array([.dictionary(["price": .value(10)]), .dictionary(["price": .value(20)])])])

    static let collectionOperators: [ValueEntry] = [
        // "@count: returns the number of objects in the left key path collection."
        ValueEntry("numbers.@count == 3", on: numbers, is: true, .collectionOperators("@count")),
        ValueEntry("SELF.@count == 3", on: ints([4, 5, 6]), is: true, .collectionOperators("@count")),
        ValueEntry("@count == 2", on: strings(["a", "b"]), is: true, .collectionOperators("@count")),
        ValueEntry("items.@count == 2", on: items, is: true, .collectionOperators("@count")),
        // "@max ... searches the collection entries named by the right key path and returns the largest."
        ValueEntry("numbers.@max == 5", on: numbers, is: true, .collectionOperators("@max")),
        ValueEntry("numbers.@max.self == 5", on: numbers, is: true, .collectionOperators("@max")),
        ValueEntry("numbers.@max > 5", on: numbers, is: false, .collectionOperators("@max")),
        ValueEntry("SELF.@max == 3", on: .value([2.5, 3.0]), is: true, .collectionOperators("@max")),
        ValueEntry("numbers.@min == 1", on: numbers, is: true, .collectionOperators("@min")),
        ValueEntry("SELF.@min.self == 'a'", on: strings(["b", "a"]), is: true, .collectionOperators("@min")),
        ValueEntry("numbers.@sum == 9", on: numbers, is: true, .collectionOperators("@sum")),
        ValueEntry("numbers.@avg == 3", on: numbers, is: true, .collectionOperators("@avg")),
        ValueEntry("items.@sum.price == 30", on: items, is: true, .collectionOperators("@sum")),
        ValueEntry("items.@avg.price == 15", on: items, is: true, .collectionOperators("@avg")),
        ValueEntry("items.@max.price == 20", on: items, is: true, .collectionOperators("@max")),
        ValueEntry("items.@min.price == 10", on: items, is: true, .collectionOperators("@min")),
        ValueEntry("@sum.price == 30", on: .array([.dictionary(["price": .value(10)]), .dictionary(["price": .value(20)])]), is: true,
                   .collectionOperators("@sum")),
        // "You can create predicates for operations, such as @sum.items.price < 1000."
        ValueEntry("@sum.items.price < 1000", on: .array([.dictionary(["items": .dictionary(["price": .value(400)])]),
                                                           .dictionary(["items": .dictionary(["price": .value(500)])])]),
                   is: true, .reference("NSPredicate")),
        ValueEntry("@sum.items.price < 1000", on: .array([.dictionary(["items": .dictionary(["price": .value(600)])]),
                                                           .dictionary(["items": .dictionary(["price": .value(500)])])]),
                   is: false, .reference("NSPredicate")),
        ValueEntry("ANY numbers > numbers.@avg", on: numbers, is: true, .collectionOperators("@avg")),
    ]

    // MARK: Subqueries

    static let residents = V.dictionary(["residents": .array([
        .dictionary(["firstname": .value("Jane"), "lastname": .value("Doe")]),
        .dictionary(["firstname": .value("John"), "lastname": .value("Doe")]),
    ])])

    /// NSExpression: "SUBQUERY(collection, variable, predicate) ... returns the elements of the
    /// collection for which the predicate is true."
    static let subqueries: [ValueEntry] = [
        ValueEntry("SUBQUERY(residents, $x, $x.firstname == 'Jane' && $x.lastname == 'Doe').@count != 0", on: residents, is: true,
                   .reference("NSExpression, subquery expressions")),
        ValueEntry("SUBQUERY(residents, $x, $x.firstname == 'Jim' && $x.lastname == 'Doe').@count != 0", on: residents, is: false,
                   .reference("NSExpression, subquery expressions")),
        ValueEntry("SUBQUERY(residents, $x, $x.lastname == 'Doe').@count == 2", on: residents, is: true,
                   .reference("NSExpression, subquery expressions")),
        ValueEntry("SUBQUERY(numbers, $n, $n > 2).@count == 2", on: numbers, is: true, .reference("NSExpression, subquery expressions")),
        ValueEntry("SUBQUERY(numbers, $n, $n > 5).@count == 0", on: numbers, is: true, .reference("NSExpression, subquery expressions")),
        ValueEntry("SUBQUERY(SELF, $s, $s BEGINSWITH 'a').@count == 1", on: strings(["apple", "banana"]), is: true,
                   .reference("NSExpression, subquery expressions")),
        ValueEntry("SUBQUERY(SELF, $s, $s IN {2, 3}).@count == 2", on: ints([1, 2, 3]), is: true,
                   .reference("NSExpression, subquery expressions")),
    ]

    // MARK: Compounds and variables

    static let compounds: [ValueEntry] = [
        ValueEntry("SELF > 1 AND SELF < 3", on: int(2), is: true, .syntax("Basic Compound Predicates")),
        ValueEntry("SELF > 1 && SELF < 3", on: int(3), is: false, .syntax("Basic Compound Predicates")),
        ValueEntry("SELF < 1 OR SELF > 3", on: int(4), is: true, .syntax("Basic Compound Predicates")),
        ValueEntry("SELF < 1 || SELF > 3", on: int(2), is: false, .syntax("Basic Compound Predicates")),
        ValueEntry("NOT SELF == 1", on: int(2), is: true, .syntax("Basic Compound Predicates")),
        ValueEntry("!(SELF == 1)", on: int(1), is: false, .syntax("Basic Compound Predicates")),
        ValueEntry("SELF == $VALUE", on: int(3), variables: ["VALUE": int(3)], is: true, .creating("Creating Predicates Using Predicate Templates")),
        ValueEntry("SELF like[c] $LAST_NAME", on: string("turner"), variables: ["LAST_NAME": string("Turner")], is: true,
                   .creating("Creating Predicates Using Predicate Templates")),
        ValueEntry("SELF BETWEEN {$LOW, $HIGH}", on: int(3), variables: ["LOW": int(1), "HIGH": int(5)], is: true,
                   .reference("NSPredicate")),
        ValueEntry("(nil) == SELF", on: .null, is: true, .bnf("Expression")),
        ValueEntry("(SELF) IN ({1, 2})", on: int(2), is: true, .bnf("Expression")),
    ]

    // MARK: Key paths

    static let keyPaths: [ValueEntry] = [
        ValueEntry("group.name like 'work*'", on: .dictionary(["group": .dictionary(["name": .value("workers")])]), is: true,
                   .reference("NSPredicate")),
        ValueEntry("group.name like 'work*'", on: .dictionary(["group": .dictionary(["name": .value("play")])]), is: false,
                   .reference("NSPredicate")),
        ValueEntry("group.name == nil", on: .dictionary([:]), is: true, .using("Using Null Values")),
        ValueEntry("%K.%K == 'x'", ["a", "b"], on: .dictionary(["a": .dictionary(["b": .value("x")])]), is: true, .bnf("Keypath Expression")),
        ValueEntry("%K == 'x'", ["a.b"], on: .dictionary(["a": .dictionary(["b": .value("x")])]), is: true, .bnf("Keypath Expression")),
        ValueEntry("%K == 'x'", ["first name"], on: .dictionary(["first name": .value("x")]), is: true, .bnf("Keypath Expression")),
        ValueEntry("%K == %@", [\CorpusPlainPost.title, "x"], on: .dictionary(["title": .value("x")]), is: true,
                   .deviation("Swift key paths as %K arguments")),
        ValueEntry("SELF.self == 3", on: int(3), is: true, .collectionOperators("self")),
    ]
}
