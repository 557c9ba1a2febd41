import Foundation
import OpenCoreData

// Format strings and exactly how predicateFormat writes them. Each also reads back as an equal
// predicate (checked by the runner).

struct CorpusPlainAuthor: Sendable { var name: String }
struct CorpusPlainPost: Sendable { var title: String; var author: CorpusPlainAuthor? }

enum PrintingCorpus {
    static let all: [PrintEntry] = parserBasics + comparisons + compounds + strings + aggregates + identifiers + literals
        + keyArguments + parenthesisedOperands + numbersAndDates + expressions

    // MARK: Parser basics

    static let parserBasics: [PrintEntry] = [
        // "If you want to specify a dynamic property name, use %K ... evaluates to firstName like "Adam"."
        PrintEntry("%K like %@", ["firstName", "Adam"], prints: #"firstName LIKE "Adam""#, .syntax("Parser Basics")),
        // "Single or double quoting variables ... cause %@, %K, or $variable to be interpreted as a literal."
        PrintEntry("%K like '%@'", ["firstName", "Adam"], prints: #"firstName LIKE "%@""#, .syntax("Parser Basics")),
        PrintEntry(#"%K like "%K""#, ["firstName"], prints: #"firstName LIKE "%K""#, .syntax("Parser Basics")),
        PrintEntry("firstName like '$NAME'", prints: #"firstName LIKE "$NAME""#, .syntax("Parser Basics")),
        // "The predicate string parser is whitespace insensitive, case insensitive with respect to
        // keywords, and supports nested parenthetical expressions."
        PrintEntry("wins>3", prints: "wins > 3", .syntax("Parser Basics")),
        PrintEntry("  wins \t>\n 3  ", prints: "wins > 3", .syntax("Parser Basics")),
        PrintEntry("wins>=3&&losses<2", prints: "wins >= 3 AND losses < 2", .syntax("Parser Basics")),
        PrintEntry("((wins > 3))", prints: "wins > 3", .syntax("Parser Basics")),
        PrintEntry("(wins > 3) AND ((losses < 2))", prints: "wins > 3 AND losses < 2", .syntax("Parser Basics")),
        PrintEntry("((wins > 3 OR draws > 1)) AND losses < 2", prints: "(wins > 3 OR draws > 1) AND losses < 2", .syntax("Parser Basics")),
        PrintEntry("(((a == 1) OR (b == 2)))", prints: "a == 1 OR b == 2", .syntax("Parser Basics")),
    ] + keywordSpellings

    /// Every keyword in lower, upper and mixed case prints in Core Data's capitals.
    static let keywordSpellings: [PrintEntry] = keywordFormats.flatMap { (format: String, printed: String, keywords: [String]) -> [PrintEntry] in
        keywords.flatMap { (keyword: String) -> [PrintEntry] in
            [keyword, keyword.uppercased(), keyword.prefix(1).uppercased() + keyword.dropFirst()].map { (spelling: String) -> PrintEntry in
                PrintEntry(format.replacingOccurrences(of: "%@", with: spelling),
                           prints: printed.replacingOccurrences(of: "%@", with: keyword.uppercased()), .syntax("Parser Basics"))
            }
        }
    } + keywordExtras

    private static let keywordFormats: [(String, String, [String])] = [
        ("name %@ 'a'", "name %@ \"a\"", ["beginswith", "endswith", "contains", "like", "matches"]),
        ("name %@ {'a'}", "name %@ {\"a\"}", ["in"]),
        ("age %@ {1, 2}", "age %@ {1, 2}", ["between"]),
        ("a == 1 %@ b == 2", "a == 1 %@ b == 2", ["and", "or"]),
        ("%@ kids.age > 1", "%@ kids.age > 1", ["any", "all"]),
        ("%@", "%@", ["truepredicate", "falsepredicate"]),
    ]

    private static let keywordExtras: [PrintEntry] = [
        PrintEntry("some kids.age > 1", prints: "ANY kids.age > 1", .syntax("Aggregate Operations")),
        PrintEntry("Some kids.age > 1", prints: "ANY kids.age > 1", .syntax("Aggregate Operations")),
        PrintEntry("not a == 1", prints: "NOT a == 1", .syntax("Parser Basics")),
        PrintEntry("Not a == 1", prints: "NOT a == 1", .syntax("Parser Basics")),
        PrintEntry("self == 1", prints: "SELF == 1", .syntax("Parser Basics")),
        PrintEntry("Self == 1", prints: "SELF == 1", .syntax("Parser Basics")),
    ]

    // MARK: Basic comparisons

    /// "=, ==", ">=, =>", "<=, =<", ">", "<", "!=, <>": each spelling, and Core Data's.
    static let comparisons: [PrintEntry] = comparisonSpellings.flatMap { (spelling: String, printed: String) -> [PrintEntry] in
        [
            PrintEntry("age \(spelling) 30", prints: "age \(printed) 30", .syntax("Basic Comparisons")),
            PrintEntry("age\(spelling)30", prints: "age \(printed) 30", .syntax("Basic Comparisons")),
            PrintEntry("%K \(spelling) %d", ["age", 30], prints: "age \(printed) 30", .syntax("Basic Comparisons")),
            PrintEntry("name \(spelling) %@", ["Ben"], prints: "name \(printed) \"Ben\"", .syntax("Basic Comparisons")),
        ]
    } + otherComparisons

    private static let comparisonSpellings: [(String, String)] = [
        ("=", "=="), ("==", "=="), (">=", ">="), ("=>", ">="), ("<=", "<="), ("=<", "<="), (">", ">"), ("<", "<"),
        ("!=", "!="), ("<>", "!="),
    ]

    private static let otherComparisons: [PrintEntry] = [
        // "BETWEEN: The left-hand expression is between, or equal to either of, the values specified
        // in the right-hand side ... 1 BETWEEN { 0 , 33 }"
        PrintEntry("1 BETWEEN { 0 , 33 }", prints: "1 BETWEEN {0, 33}", .syntax("Basic Comparisons")),
        PrintEntry("age BETWEEN {0, 33}", prints: "age BETWEEN {0, 33}", .syntax("Basic Comparisons")),
        PrintEntry("attributeName BETWEEN %@", [[1, 10]], prints: "attributeName BETWEEN {1, 10}", .syntax("Basic Comparisons")),
        PrintEntry("date BETWEEN {$YESTERDAY, $TOMORROW}", prints: "date BETWEEN {$YESTERDAY, $TOMORROW}", .reference("NSPredicate")),
        PrintEntry("grade == \"7\"", prints: #"grade == "7""#, .reference("NSPredicate")),
        PrintEntry("TRUEPREDICATE", prints: "TRUEPREDICATE", .syntax("Boolean Value Predicates")),
        PrintEntry("FALSEPREDICATE", prints: "FALSEPREDICATE", .syntax("Boolean Value Predicates")),
    ]

    // MARK: Compound predicates

    static let compounds: [PrintEntry] = [
        // "AND, &&: Logical AND." "OR, ||: Logical OR." "NOT, !: Logical NOT."
        PrintEntry("a == 1 AND b == 2", prints: "a == 1 AND b == 2", .syntax("Basic Compound Predicates")),
        PrintEntry("a == 1 && b == 2", prints: "a == 1 AND b == 2", .syntax("Basic Compound Predicates")),
        PrintEntry("a == 1 OR b == 2", prints: "a == 1 OR b == 2", .syntax("Basic Compound Predicates")),
        PrintEntry("a == 1 || b == 2", prints: "a == 1 OR b == 2", .syntax("Basic Compound Predicates")),
        PrintEntry("NOT a == 1", prints: "NOT a == 1", .syntax("Basic Compound Predicates")),
        PrintEntry("!a == 1", prints: "NOT a == 1", .syntax("Basic Compound Predicates")),
        PrintEntry("! a == 1", prints: "NOT a == 1", .syntax("Basic Compound Predicates")),
        // NOT is followed by its comparison bare, by a compound in parentheses.
        PrintEntry("NOT (a == 1)", prints: "NOT a == 1", .printedByFoundation("NOT of a comparison")),
        PrintEntry("NOT (name BEGINSWITH 'Desp')", prints: #"NOT name BEGINSWITH "Desp""#, .printedByFoundation("NOT of a comparison")),
        PrintEntry("NOT (isReal == YES)", prints: "NOT isReal == 1", .printedByFoundation("NOT of a comparison")),
        PrintEntry("NOT (age BETWEEN {1, 3})", prints: "NOT age BETWEEN {1, 3}", .printedByFoundation("NOT of a comparison")),
        PrintEntry("NOT (stubRaw IN {1, 2})", prints: "NOT stubRaw IN {1, 2}", .printedByFoundation("NOT of a comparison")),
        PrintEntry("!(a == 1 && b == 2)", prints: "NOT (a == 1 AND b == 2)", .printedByFoundation("NOT of a compound")),
        PrintEntry("NOT (a == 1 OR b == 2)", prints: "NOT (a == 1 OR b == 2)", .printedByFoundation("NOT of a compound")),
        PrintEntry("NOT NOT a == 1", prints: "NOT (NOT a == 1)", .printedByFoundation("NOT of a compound")),
        PrintEntry("NOT TRUEPREDICATE", prints: "NOT TRUEPREDICATE", .printedByFoundation("NOT of a constant")),
        // A compound inside a compound is parenthesised, a NOT included.
        PrintEntry("(score > 10 AND name BEGINSWITH 'To') OR name ENDSWITH 'ta'",
                   prints: #"(score > 10 AND name BEGINSWITH "To") OR name ENDSWITH "ta""#, .printedByFoundation("nested compounds")),
        PrintEntry("score > 10 AND (name BEGINSWITH 'To' OR name ENDSWITH 'ta')",
                   prints: #"score > 10 AND (name BEGINSWITH "To" OR name ENDSWITH "ta")"#, .printedByFoundation("nested compounds")),
        PrintEntry("(score > 10 AND name BEGINSWITH 'To') AND name ENDSWITH 'ta'",
                   prints: #"(score > 10 AND name BEGINSWITH "To") AND name ENDSWITH "ta""#, .printedByFoundation("nested compounds")),
        PrintEntry("name == 'Foo' AND (age < 13 OR age > 18)", prints: #"name == "Foo" AND (age < 13 OR age > 18)"#,
                   .printedByFoundation("nested compounds")),
        PrintEntry("a == 1 AND b == 2 OR c == 3", prints: "(a == 1 AND b == 2) OR c == 3", .printedByFoundation("nested compounds")),
        PrintEntry("a == 1 OR b == 2 AND c == 3", prints: "a == 1 OR (b == 2 AND c == 3)", .printedByFoundation("nested compounds")),
        PrintEntry("NOT a == 1 AND b == 2", prints: "(NOT a == 1) AND b == 2", .printedByFoundation("nested compounds")),
        PrintEntry("a == 1 OR NOT b == 2", prints: "a == 1 OR (NOT b == 2)", .printedByFoundation("nested compounds")),
        PrintEntry("1 <= score AND score < 10.5", prints: "1 <= score AND score < 10.5", .printedByFoundation("nested compounds")),
        PrintEntry("(firstName like 'Mark') OR (lastName like 'Adderley')", prints: #"firstName LIKE "Mark" OR lastName LIKE "Adderley""#,
                   .reference("NSPredicate")),
        PrintEntry("(lastName like[cd] %@) AND (birthday > %@)", ["Turner", Date(timeIntervalSinceReferenceDate: -883_612_800)],
                   prints: #"lastName LIKE[cd] "Turner" AND birthday > CAST(-883612800.000000, "NSDate")"#, .creating("Creating a Predicate Using a Format String")),
    ]

    // MARK: String comparisons

    static let strings: [PrintEntry] = [
        // "You can modify an operator using the key characters c and d within square braces ...
        // for example firstName BEGINSWITH[cd] $FIRST_NAME."
        PrintEntry("firstName BEGINSWITH[cd] $FIRST_NAME", prints: "firstName BEGINSWITH[cd] $FIRST_NAME", .syntax("String Comparisons")),
        PrintEntry("name contains[cd] 'citroen'", prints: #"name CONTAINS[cd] "citroen""#, .reference("NSPredicate")),
        PrintEntry("name contains[cd] \"itroen\"", prints: #"name CONTAINS[cd] "itroen""#, .reference("NSPredicate")),
        PrintEntry("firstName like 'Mark'", prints: #"firstName LIKE "Mark""#, .using("Predicate Programming Guide introduction")),
        PrintEntry("group.name matches 'work.*'", prints: #"group.name MATCHES "work.*""#, .using("Predicate Programming Guide introduction")),
        PrintEntry("group.name like \"work*\"", prints: #"group.name LIKE "work*""#, .reference("NSPredicate")),
        PrintEntry("lastName like[c] \"S*\"", prints: #"lastName LIKE[c] "S*""#, .creating("String Constants, Variables, and Wildcards")),
        PrintEntry("lastName like[c] %@", ["S*"], prints: #"lastName LIKE[c] "S*""#, .creating("String Constants, Variables, and Wildcards")),
        PrintEntry("lastName like[c] $LAST_NAME", prints: "lastName LIKE[c] $LAST_NAME", .creating("Creating Predicates Using Predicate Templates")),
        PrintEntry("SELF MATCHES %@", ["[0-9]{9}[0-9X]"], prints: #"SELF MATCHES "[0-9]{9}[0-9X]""#, .using("Using Regular Expressions")),
        PrintEntry("SELF beginswith[c] 'a'", prints: #"SELF BEGINSWITH[c] "a""#, .using("Using Predicates with Arrays")),
        PrintEntry("SELF contains[c] 'e'", prints: #"SELF CONTAINS[c] "e""#, .using("Using Predicates with Arrays")),
    ] + ["c", "d", "cd", "dc", "C", "D", "CD"].flatMap { (options: String) -> [PrintEntry] in
        ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES"].map { (op: String) -> PrintEntry in
            let printed = (options.lowercased().contains("c") ? "c" : "") + (options.lowercased().contains("d") ? "d" : "")
            return PrintEntry("name \(op)[\(options)] 'x'", prints: "name \(op)[\(printed)] \"x\"", .syntax("String Comparisons"))
        }
    }

    // MARK: Aggregate operations

    static let aggregates: [PrintEntry] = [
        // "ANY, SOME: Specifies any of the elements in the following expression. For example ANY children.age < 18."
        PrintEntry("ANY children.age < 18", prints: "ANY children.age < 18", .syntax("Aggregate Operations")),
        PrintEntry("SOME children.age < 18", prints: "ANY children.age < 18", .syntax("Aggregate Operations")),
        PrintEntry("ALL children.age < 18", prints: "ALL children.age < 18", .syntax("Aggregate Operations")),
        PrintEntry("ALL children.age > 12", prints: "ALL children.age > 12", .reference("NSPredicate")),
        PrintEntry("ANY children.age > 12", prints: "ANY children.age > 12", .reference("NSPredicate")),
        PrintEntry("ANY employees.firstName like 'Matthew'", prints: #"ANY employees.firstName LIKE "Matthew""#, .using("Using Predicates with Key-Paths")),
        PrintEntry("ANY employees.salary > %f", [50_000.0], prints: "ANY employees.salary > 50000", .using("Using Predicates with Key-Paths")),
        // "IN: Equivalent to an SQL IN operation ... For example, name IN { 'Ben', 'Melissa', 'Nick' }."
        PrintEntry("name IN { 'Ben', 'Melissa', 'Nick' }", prints: #"name IN {"Ben", "Melissa", "Nick"}"#, .syntax("Aggregate Operations")),
        PrintEntry("attribute IN %@", [["Riri", "Fifi"]], prints: #"attribute IN {"Riri", "Fifi"}"#, .syntax("Aggregate Operations")),
        PrintEntry("SELF IN %@", [["Stig", "Shaffiq", "Chris"]], prints: #"SELF IN {"Stig", "Shaffiq", "Chris"}"#, .using("Evaluating Predicates")),
        PrintEntry("'name' IN $NAME_LIST", prints: #""name" IN $NAME_LIST"#, .creating("Format String Summary")),
        PrintEntry("$name IN $NAME_LIST", prints: "$name IN $NAME_LIST", .creating("Format String Summary")),
        PrintEntry("name IN {}", prints: "name IN {}", .bnf("Literal Aggregate")),
        PrintEntry("name IN {'a', {'b'}}", prints: #"name IN {"a", {"b"}}"#, .bnf("Literal Aggregate")),
        // "CONTAINS and IN serve both as aggregate operators and string operators."
        PrintEntry("tags CONTAINS 'a'", prints: #"tags CONTAINS "a""#, .bnf("Operations")),
        PrintEntry("'a' IN tags", prints: #""a" IN tags"#, .bnf("Operations")),
    ]

    // MARK: Identifiers

    /// "#symbol: Used to escape a reserved word into a user identifier." Every reserved word,
    /// escaped in the format and given as a %K argument, prints escaped.
    static let reservedWords = ["AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
                                "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
                                "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE"]

    static let identifiers: [PrintEntry] = reservedWords.flatMap { (word: String) -> [PrintEntry] in
        [
            PrintEntry("#\(word) == 1", prints: "#\(word) == 1", .syntax("Identifiers")),
            PrintEntry("%K == 1", [word.lowercased()], prints: "#\(word.lowercased()) == 1", .syntax("Reserved Words")),
            PrintEntry("team.#\(word) == 1", prints: "team.#\(word) == 1", .syntax("Identifiers")),
        ]
    } + [
        PrintEntry("#name == 1", prints: "name == 1", .syntax("Identifiers")),
        PrintEntry("_private1 == 1", prints: "_private1 == 1", .syntax("Identifiers")),
        PrintEntry("café == 1", prints: "café == 1", .syntax("Identifiers")),
    ]

    // MARK: Literals

    static let literals: [PrintEntry] = [
        // "Single and double quotes produce the same result, but they do not terminate each other."
        PrintEntry("x == 'abc'", prints: #"x == "abc""#, .syntax("Literals")),
        PrintEntry("x == \"abc\"", prints: #"x == "abc""#, .syntax("Literals")),
        PrintEntry(#"x == "a'b'c""#, prints: #"x == "a'b'c""#, .syntax("Literals")),
        PrintEntry(#"x == 'a"b"c'"#, prints: #"x == "a\"b\"c""#, .syntax("Literals")),
        PrintEntry(#"x == 'back\\slash'"#, prints: #"x == "back\\slash""#, .syntax("Literals")),
        // "[\]{octaldigit}{3}", "[\][x]{hexdigit}{2}", "[\][u]{hexdigit}{4}": escaped characters.
        PrintEntry(#"x == '\101'"#, prints: #"x == "A""#, .syntax("Identifiers")),
        PrintEntry(#"x == '\x41\x42'"#, prints: #"x == "AB""#, .syntax("Identifiers")),
        PrintEntry(#"x == '\u0041'"#, prints: #"x == "A""#, .syntax("Identifiers")),
        PrintEntry(#"x == '\u00e9t\u00E9'"#, prints: #"x == "été""#, .syntax("Identifiers")),
        PrintEntry("x == FALSE", prints: "x == 0", .syntax("Literals")),
        PrintEntry("x == NO", prints: "x == 0", .syntax("Literals")),
        PrintEntry("x == TRUE", prints: "x == 1", .syntax("Literals")),
        PrintEntry("x == YES", prints: "x == 1", .syntax("Literals")),
        PrintEntry("x == NULL", prints: "x == nil", .syntax("Literals")),
        PrintEntry("x == NIL", prints: "x == nil", .syntax("Literals")),
        PrintEntry("x == nil", prints: "x == nil", .syntax("Literals")),
        PrintEntry("SELF == x", prints: "SELF == x", .syntax("Literals")),
        PrintEntry("x IN {'comma', 'separated', 'literal', 'array'}", prints: #"x IN {"comma", "separated", "literal", "array"}"#,
                   .syntax("Literals")),
        PrintEntry("x == 1", prints: "x == 1", .syntax("Literals")),
        PrintEntry("x == 27", prints: "x == 27", .syntax("Literals")),
        PrintEntry("x == 2.71828", prints: "x == 2.71828", .syntax("Literals")),
        PrintEntry("x == 19.75", prints: "x == 19.75", .syntax("Literals")),
        PrintEntry("x == 1e9", prints: "x == 1000000000", .syntax("Literals")),
        PrintEntry("x == 0x1F", prints: "x == 31", .syntax("Literals")),
        PrintEntry("x == 0o17", prints: "x == 15", .syntax("Literals")),
        PrintEntry("x == 0b101", prints: "x == 5", .syntax("Literals")),
        PrintEntry("x == -3", prints: "x == -3", .bnf("Numeric Value")),
        PrintEntry("x == -2.5", prints: "x == -2.5", .bnf("Numeric Value")),
        // "Boolean Values": the two ways of writing a Boolean, and Foundation's `1`.
        PrintEntry("anAttribute == %@", [true], prints: "anAttribute == 1", .creating("Boolean Values")),
        PrintEntry("anAttribute == YES", prints: "anAttribute == 1", .creating("Boolean Values")),
        PrintEntry("anAttribute == %@", [false], prints: "anAttribute == 0", .creating("Boolean Values")),
        PrintEntry("x IN {YES, NO}", prints: "x IN {1, 0}", .printedByFoundation("Booleans")),
    ]

    // MARK: %K arguments

    static let keyArguments: [PrintEntry] = [
        // "Format String Summary": attributeName == %@, %K == %@, %K == '%@'.
        PrintEntry("attributeName == %@", ["Ben"], prints: #"attributeName == "Ben""#, .creating("Format String Summary")),
        PrintEntry("%K == %@", ["attributeName", "Ben"], prints: #"attributeName == "Ben""#, .creating("Format String Summary")),
        PrintEntry("%K == '%@'", ["attributeName"], prints: #"attributeName == "%@""#, .creating("Format String Summary")),
        PrintEntry("%K == %@", ["author.name", "x"], prints: #"author.name == "x""#, .bnf("Keypath Expression")),
        // keypath_expression ::= expression "." expression: %K.%K joins the arguments into one path.
        PrintEntry("%K.%K == %@", ["author", "name", "x"], prints: #"author.name == "x""#, .bnf("Keypath Expression")),
        PrintEntry("%K.%K.%K > 1", ["blog", "author", "age"], prints: "blog.author.age > 1", .bnf("Keypath Expression")),
        PrintEntry("%K.name == %@", ["author", "x"], prints: #"author.name == "x""#, .bnf("Keypath Expression")),
        PrintEntry("author.%K == %@", ["name", "x"], prints: #"author.name == "x""#, .bnf("Keypath Expression")),
        PrintEntry("ANY %K.%K == 1", ["posts", "rating"], prints: "ANY posts.rating == 1", .bnf("Keypath Expression")),
        PrintEntry("%K.@count > 1", ["posts"], prints: "posts.@count > 1", .bnf("Keypath Expression")),
        PrintEntry("SELF.%K == 1", ["age"], prints: "age == 1", .bnf("Keypath Expression")),
        PrintEntry("$x.%K == 1", ["age"], prints: "$x.age == 1", .bnf("Keypath Expression")),
        PrintEntry("%K.%K == %@", ["author.blog", "name", "x"], prints: #"author.blog.name == "x""#, .bnf("Keypath Expression")),
        PrintEntry("%K == %@", ["in", 1], prints: "#in == 1", .syntax("Reserved Words")),
        // Swift key paths stand for #keyPath, which needs the Objective-C runtime.
        PrintEntry("%K == %@", [\CorpusPlainPost.title, "x"], prints: #"title == "x""#, .deviation("Swift key paths as %K arguments")),
        PrintEntry("%K == %@", [\CorpusPlainPost.author?.name, "x"], prints: #"author.name == "x""#, .deviation("Swift key paths as %K arguments")),
        PrintEntry("%K == %@", [\CorpusEmployee.department?.name, "x"], prints: #"department.name == "x""#,
                   .deviation("Swift key paths as %K arguments")),
        PrintEntry("%K.%K == %@", [\CorpusEmployee.department, \CorpusDepartment.name, "x"], prints: #"department.name == "x""#,
                   .deviation("Swift key paths as %K arguments")),
        PrintEntry("ANY %K > 1", [\CorpusDepartment.employees], prints: "ANY employees > 1", .deviation("Swift key paths as %K arguments")),
        // Core Data prints such keys raw, which does not parse; this library writes the
        // valueForKeyPath: function, which both parsers read.
        PrintEntry("%K == 1", ["first name"], prints: #"FUNCTION(SELF, "valueForKeyPath:", "first name") == 1"#,
                   .deviation("keys that are not identifiers")),
        PrintEntry("%K.%K == 1", ["people", "e-mail"], prints: #"FUNCTION(SELF, "valueForKeyPath:", "people.e-mail") == 1"#,
                   .deviation("keys that are not identifiers")),
        PrintEntry("$x.%K == 1", ["a b"], prints: #"FUNCTION($x, "valueForKeyPath:", "a b") == 1"#, .deviation("keys that are not identifiers")),
        PrintEntry("FUNCTION(SELF, 'valueForKeyPath:', 'a.b c') == 1", prints: #"FUNCTION(SELF, "valueForKeyPath:", "a.b c") == 1"#,
                   .bnf("Function Expression")),
        PrintEntry("FUNCTION(SELF, 'valueForKey:', 'name') == 1", prints: "name == 1", .bnf("Function Expression")),
        PrintEntry("FUNCTION(author, 'valueForKeyPath:', 'name') == 1", prints: "author.name == 1", .bnf("Function Expression")),
    ]

    // MARK: Parenthesised operands

    /// expression ::= "(" expression ")"
    static let parenthesisedOperands: [PrintEntry] = [
        PrintEntry("done = (nil)", prints: "done == nil", .bnf("Expression")),
        PrintEntry("(nil) == done", prints: "nil == done", .bnf("Expression")),
        PrintEntry("(null) == x", prints: "nil == x", .bnf("Expression")),
        PrintEntry("((a)) == 1", prints: "a == 1", .bnf("Expression")),
        PrintEntry("(a) == (1)", prints: "a == 1", .bnf("Expression")),
        PrintEntry("(a) != ('x')", prints: #"a != "x""#, .bnf("Expression")),
        PrintEntry("(SELF) == 'x'", prints: #"SELF == "x""#, .bnf("Expression")),
        PrintEntry("(SELF).name == 'x'", prints: #"name == "x""#, .bnf("Keypath Expression")),
        PrintEntry("(author).name == 'x'", prints: #"author.name == "x""#, .bnf("Keypath Expression")),
        PrintEntry("ANY (kids).age > 1", prints: "ANY kids.age > 1", .bnf("Expression")),
        PrintEntry("x IN ({1, 2})", prints: "x IN {1, 2}", .bnf("Expression")),
        PrintEntry("x IN {(1), (2)}", prints: "x IN {1, 2}", .bnf("Expression")),
        PrintEntry("(x) BETWEEN {1, 2}", prints: "x BETWEEN {1, 2}", .bnf("Expression")),
        PrintEntry("(name) BEGINSWITH[c] ('a')", prints: #"name BEGINSWITH[c] "a""#, .bnf("Expression")),
        PrintEntry("NOT (a) == 1", prints: "NOT a == 1", .bnf("Expression")),
        PrintEntry("(a == 1) AND (b) == 2", prints: "a == 1 AND b == 2", .bnf("Expression")),
        PrintEntry("((a) == 1)", prints: "a == 1", .bnf("Expression")),
        PrintEntry("(%K) == (%@)", ["a", "x"], prints: #"a == "x""#, .bnf("Expression")),
        PrintEntry("(%@) == x", [3], prints: "3 == x", .bnf("Expression")),
        PrintEntry("($V) == x", prints: "$V == x", .bnf("Expression")),
        PrintEntry("SUBQUERY(kids, $k, ($k.age) > 1).@count > 0", prints: "SUBQUERY(kids, $k, $k.age > 1).@count > 0", .bnf("Expression")),
        PrintEntry("(SUBQUERY(kids, $k, $k.age > 1).@count) > 0", prints: "SUBQUERY(kids, $k, $k.age > 1).@count > 0", .bnf("Expression")),
        PrintEntry("(kids.@count) > 0", prints: "kids.@count > 0", .bnf("Expression")),
    ]

    // MARK: Numbers and dates

    static let numbersAndDates: [PrintEntry] = [
        // Foundation describes a number the way NSNumber does: a whole double without a fraction.
        PrintEntry("score == 10.0", prints: "score == 10", .printedByFoundation("numbers")),
        PrintEntry("score == %@", [10.0], prints: "score == 10", .printedByFoundation("numbers")),
        PrintEntry("score == %f", [10.0], prints: "score == 10", .printedByFoundation("numbers")),
        PrintEntry("score > %@", [Float(2.5)], prints: "score > 2.5", .printedByFoundation("numbers")),
        PrintEntry("score < 10.5", prints: "score < 10.5", .printedByFoundation("numbers")),
        PrintEntry("score == %d", [10], prints: "score == 10", .printedByFoundation("numbers")),
        PrintEntry("score == %ld", [Int64(-7)], prints: "score == -7", .printedByFoundation("numbers")),
        PrintEntry("score == 0.1", prints: "score == 0.1", .printedByFoundation("numbers")),
        PrintEntry("score == 1e16", prints: "score == 1e+16", .printedByFoundation("numbers")),
        PrintEntry("score == 123456.0", prints: "score == 123456", .printedByFoundation("numbers")),
        PrintEntry("score IN {1.0, 2.5, 3}", prints: "score IN {1, 2.5, 3}", .printedByFoundation("numbers")),
        // Dates print as a cast of their seconds since the reference date, with six decimals.
        PrintEntry("birthday > %@", [Date(timeIntervalSinceReferenceDate: 0)], prints: #"birthday > CAST(0.000000, "NSDate")"#,
                   .printedByFoundation("dates")),
        PrintEntry("birthday > %@", [Date(timeIntervalSinceReferenceDate: 449_611_200)],
                   prints: #"birthday > CAST(449611200.000000, "NSDate")"#, .printedByFoundation("dates")),
        PrintEntry("birthday > %@", [Date(timeIntervalSinceReferenceDate: 12.5)], prints: #"birthday > CAST(12.500000, "NSDate")"#,
                   .printedByFoundation("dates")),
        PrintEntry("birthday > CAST(449611200, 'NSDate')", prints: #"birthday > CAST(449611200.000000, "NSDate")"#, .printedByFoundation("dates")),
        PrintEntry("birthday > %@", [Date(timeIntervalSince1970: 0)], prints: #"birthday > CAST(-978307200.000000, "NSDate")"#,
                   .using("Using Null Values")),
    ]

    // MARK: Expressions

    static let expressions: [PrintEntry] = [
        // NSExpression, "Subquery Expressions".
        PrintEntry("SUBQUERY(residents, $x, $x.firstname == 'Jane' && $x.lastname == 'Doe').@count != 0",
                   prints: #"SUBQUERY(residents, $x, $x.firstname == "Jane" AND $x.lastname == "Doe").@count != 0"#,
                   .reference("NSExpression, subquery expressions")),
        // "You can create predicates for operations, such as @sum.items.price < 1000."
        PrintEntry("@sum.items.price < 1000", prints: "@sum.items.price < 1000", .reference("NSPredicate")),
        PrintEntry("items.@sum.price < 1000", prints: "items.@sum.price < 1000", .collectionOperators("@sum")),
        PrintEntry("items.@avg.price > 2", prints: "items.@avg.price > 2", .collectionOperators("@avg")),
        PrintEntry("items.@min.price > 2", prints: "items.@min.price > 2", .collectionOperators("@min")),
        PrintEntry("items.@max.price > 2", prints: "items.@max.price > 2", .collectionOperators("@max")),
        PrintEntry("items.@count > 3", prints: "items.@count > 3", .collectionOperators("@count")),
        PrintEntry("@count == 0", prints: "@count == 0", .collectionOperators("@count")),
        PrintEntry("SELF.@count == 0", prints: "@count == 0", .collectionOperators("@count")),
        PrintEntry("$VARIABLE_NAME == 1", prints: "$VARIABLE_NAME == 1", .syntax("Parser Basics")),
        PrintEntry("$person.name == 'x'", prints: #"$person.name == "x""#, .bnf("Keypath Expression")),
    ]
}
