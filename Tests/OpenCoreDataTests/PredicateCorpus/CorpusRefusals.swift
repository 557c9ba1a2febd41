import OpenCoreData

// Format strings the grammar rejects (a thrown error where Core Data raises), and the documented
// constructs this library does not support (a named error, never a wrong answer).

enum RefusalCorpus {
    private static let syntax = PredicateParseError.syntaxError
    private static let missing = PredicateParseError.missingArgument
    private static let argument = PredicateParseError.unsupportedArgument
    private static let unsupported = PredicateParseError.unsupportedSyntax

    static let all: [RefusalEntry] = [
        // "? is not a valid parser token."
        RefusalEntry("name == ?", code: syntax, .syntax("Parser Basics")),
        RefusalEntry("name LIKE ? AND age > 1", code: syntax, .syntax("Parser Basics")),
        // string_value ::= "text" | 'text'
        RefusalEntry("name == 'abc", code: syntax, .bnf("String Value")),
        RefusalEntry("name == \"abc'", code: syntax, .syntax("Literals")),
        // string_options ::= c | d | cd
        RefusalEntry("name BEGINSWITH[x] 'a'", code: syntax, .bnf("Operations")),
        RefusalEntry("name BEGINSWITH[] 'a'", code: syntax, .bnf("Operations")),
        RefusalEntry("name BEGINSWITH[cc] 'a'", code: syntax, .bnf("Operations")),
        // Arguments are substituted in the order they appear; each needs one.
        RefusalEntry("name == %@", code: missing, .reference("NSPredicate init(format:arguments:)")),
        RefusalEntry("name == %@ AND age == %d", ["x"], code: missing, .reference("NSPredicate init(format:arguments:)")),
        RefusalEntry("%K == 1", code: missing, .reference("NSPredicate init(format:arguments:)")),
        RefusalEntry("%K.%K == 1", ["a"], code: missing, .bnf("Keypath Expression")),
        RefusalEntry("%K == 1", [5], code: argument, .syntax("Parser Basics")),
        RefusalEntry("%K == 1", ["a..b"], code: argument, .syntax("Parser Basics")),
        RefusalEntry("%K.%K == 1", ["a", ""], code: argument, .syntax("Parser Basics")),
        RefusalEntry("age == %d", ["x"], code: argument, .syntax("Parser Basics")),
        // NSCompoundPredicate ::= NSPredicate "AND" NSPredicate | ... | "NOT" NSPredicate
        RefusalEntry("a == 1 AND", code: syntax, .bnf("NSCompoundPredicate")),
        RefusalEntry("OR a == 1", code: syntax, .bnf("NSCompoundPredicate")),
        RefusalEntry("NOT", code: syntax, .bnf("NSCompoundPredicate")),
        RefusalEntry("(a == 1", code: syntax, .bnf("NSPredicate")),
        RefusalEntry("a == 1)", code: syntax, .bnf("NSPredicate")),
        RefusalEntry("((a) == 1", code: syntax, .bnf("Expression")),
        RefusalEntry("(a == 1) == 2", code: syntax, .bnf("Expression")),
        RefusalEntry("()", code: syntax, .bnf("NSPredicate")),
        RefusalEntry("", code: syntax, .bnf("NSPredicate")),
        // NSComparisonPredicate ::= expression operation expression
        RefusalEntry("== 1", code: syntax, .bnf("NSComparisonPredicate")),
        RefusalEntry("a 1", code: syntax, .bnf("NSComparisonPredicate")),
        RefusalEntry("a ==", code: syntax, .bnf("NSComparisonPredicate")),
        RefusalEntry("ANY", code: syntax, .bnf("Aggregate Qualifier")),
        // predicate_variable ::= "$" identifier
        RefusalEntry("$ == 1", code: syntax, .bnf("Predicate Variable")),
        // literal_aggregate ::= "{" [ expression [ "," expression ... ] ] "}"
        RefusalEntry("a IN {1, 2", code: syntax, .bnf("Literal Aggregate")),
        RefusalEntry("a IN {1 2}", code: syntax, .bnf("Literal Aggregate")),
        RefusalEntry("a BETWEEN {1}", code: syntax, .syntax("Basic Comparisons")),
        RefusalEntry("a BETWEEN 1", code: syntax, .syntax("Basic Comparisons")),
        // Escapes: "\x followed by 2 hex digits", "\u followed by 4 hex digits".
        RefusalEntry(#"a == '\x4'"#, code: syntax, .syntax("Identifiers")),
        RefusalEntry(#"a == '\u004'"#, code: syntax, .syntax("Identifiers")),
        RefusalEntry(#"a == '\q'"#, code: syntax, .syntax("Identifiers")),
        // MATCHES: "a regex-style comparison according to ICU v3".
        RefusalEntry("a MATCHES '['", code: PredicateParseError.invalidRegularExpression, .syntax("String Comparisons")),
        RefusalEntry("a MATCHES '(a'", code: PredicateParseError.invalidRegularExpression, .syntax("String Comparisons")),
        // Documented constructs this library refuses by name (see the Predicate Format Reference).
        RefusalEntry("age + 1 > 3", code: unsupported, .bnf("Binary Expression")),
        RefusalEntry("age * 2 > 3", code: unsupported, .bnf("Binary Expression")),
        RefusalEntry("-age > 3", code: unsupported, .bnf("Binary Expression")),
        RefusalEntry("children[FIRST].age > 1", code: unsupported, .bnf("Index Expression")),
        RefusalEntry("children[0].age > 1", code: unsupported, .bnf("Index Expression")),
        RefusalEntry("sum({1, 2}) == 3", code: unsupported, .bnf("Function Expression")),
        RefusalEntry("FUNCTION(SELF, 'uppercaseString') == 'A'", code: unsupported, .bnf("Function Expression")),
        RefusalEntry("FUNCTION(SELF, 'valueForKey:', 'a.b') == 1", code: unsupported, .bnf("Function Expression")),
        RefusalEntry("FIRST == 1", code: unsupported, .syntax("Reserved Words")),
        RefusalEntry("@distinctUnionOfObjects.name == 'x'", code: unsupported, .collectionOperators("@distinctUnionOfObjects")),
        RefusalEntry("SUBQUERY(kids, $k, $k.age > 1).@sum > 1", code: unsupported, .reference("NSExpression, subquery expressions")),
        RefusalEntry("name ==[n] 'a'", code: unsupported, .reference("NSComparisonPredicate.Options.normalized")),
    ]
}
