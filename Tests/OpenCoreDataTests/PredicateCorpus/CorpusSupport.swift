import Foundation
import OpenCoreData

// The predicate corpus: Core Data's predicate language case by case, as Apple documents it.
// Every entry names the statement it is written from. The tables are in the other files of
// this folder; PredicateCorpusTests runs them.

/// Where an expectation comes from.
enum CorpusSource: Sendable, CustomStringConvertible {
    /// *Predicate Programming Guide*, "Predicate Format String Syntax", the named section.
    case syntax(String)
    /// *Predicate Programming Guide*, "BNF Definition of Cocoa Predicates", the named rule.
    case bnf(String)
    /// *Predicate Programming Guide*, "Creating Predicates", the named section.
    case creating(String)
    /// *Predicate Programming Guide*, "Using Predicates", the named section.
    case using(String)
    /// Apple's API reference: the named symbol and what its page states.
    case reference(String)
    /// *Key-Value Coding Programming Guide*, "Using Collection Operators".
    case collectionOperators(String)
    /// *Core Data Programming Guide*, the named section.
    case coreData(String)
    /// How Foundation's `predicateFormat` writes a construct, as open-source suites that run
    /// against Foundation on Apple platforms assert it (the reference says only that the text
    /// need not be the format the predicate was made from).
    case printedByFoundation(String)
    /// Where this library departs from Core Data on purpose, as its documentation states.
    case deviation(String)

    var description: String {
        switch self {
        case .syntax(let section): "Predicate Programming Guide › Predicate Format String Syntax › \(section)"
        case .bnf(let rule): "Predicate Programming Guide › BNF Definition of Cocoa Predicates › \(rule)"
        case .creating(let section): "Predicate Programming Guide › Creating Predicates › \(section)"
        case .using(let section): "Predicate Programming Guide › Using Predicates › \(section)"
        case .reference(let symbol): "API reference › \(symbol)"
        case .collectionOperators(let operatorName): "Key-Value Coding Programming Guide › Using Collection Operators › \(operatorName)"
        case .coreData(let section): "Core Data Programming Guide › \(section)"
        case .printedByFoundation(let construct): "Foundation's predicateFormat › \(construct)"
        case .deviation(let what): "OpenCoreData, on purpose › \(what)"
        }
    }
}

/// A format string with its arguments: how every corpus entry starts.
struct CorpusFormat: Sendable, CustomStringConvertible {
    let text: String
    let arguments: [any Sendable]

    init(_ text: String, _ arguments: [any Sendable] = []) {
        self.text = text
        self.arguments = arguments
    }

    func parse() throws -> FetchPredicate {
        try FetchPredicate(format: text, argumentArray: arguments.map { $0 as Any? })
    }

    var description: String {
        arguments.isEmpty ? text.debugDescription : "\(text.debugDescription) with \(arguments.map { "\($0)" })"
    }
}

/// A format string and exactly how `predicateFormat` writes it back.
struct PrintEntry: Sendable {
    let format: CorpusFormat
    let printed: String
    let source: CorpusSource

    init(_ format: String, _ arguments: [any Sendable] = [], prints printed: String, _ source: CorpusSource) {
        self.format = CorpusFormat(format, arguments)
        self.printed = printed
        self.source = source
    }
}

/// A format string and what `evaluate(with:)` answers for a plain value: a string, a number,
/// an array, a dictionary.
struct ValueEntry: Sendable {
    let format: CorpusFormat
    let object: CorpusValue
    let variables: [String: CorpusValue]
    let expected: Bool
    let source: CorpusSource

    init(_ format: String, _ arguments: [any Sendable] = [], on object: CorpusValue, variables: [String: CorpusValue] = [:],
         is expected: Bool, _ source: CorpusSource) {
        self.format = CorpusFormat(format, arguments)
        self.object = object
        self.variables = variables
        self.expected = expected
        self.source = source
    }
}

/// A value to evaluate on. `NSNull` and nested dictionaries are not `Sendable`, so values are
/// made when a case runs.
struct CorpusValue: Sendable, CustomStringConvertible {
    let make: @Sendable () -> Any?
    let description: String

    static func value(_ value: some Sendable) -> CorpusValue {
        CorpusValue(make: { value }, description: "\(value)")
    }

    static let null = CorpusValue(make: { nil }, description: "nil")
    static let nsNull = CorpusValue(make: { NSNull() }, description: "NSNull()")

    static func dictionary(_ values: [String: CorpusValue]) -> CorpusValue {
        CorpusValue(make: { values.mapValues { $0.make() ?? NSNull() } },
                    description: "[" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]")
    }

    static func array(_ values: [CorpusValue]) -> CorpusValue {
        CorpusValue(make: { values.map { $0.make() ?? NSNull() } }, description: "[" + values.map(\.description).joined(separator: ", ") + "]")
    }
}

/// A fetch of the corpus store and the objects (by name) it must return.
struct StoreEntry: Sendable {
    let format: CorpusFormat
    let entity: String
    let expected: Set<String>
    let source: CorpusSource

    init(_ format: String, _ arguments: [any Sendable] = [], of entity: String = "CorpusEmployee", are expected: Set<String>,
         _ source: CorpusSource) {
        self.format = CorpusFormat(format, arguments)
        self.entity = entity
        self.expected = expected
        self.source = source
    }
}

/// A format string that must be refused, and the error code.
struct RefusalEntry: Sendable {
    let format: CorpusFormat
    let code: CoreDataErrorCode
    let source: CorpusSource

    init(_ format: String, _ arguments: [any Sendable] = [], code: CoreDataErrorCode, _ source: CorpusSource) {
        self.format = CorpusFormat(format, arguments)
        self.code = code
        self.source = source
    }
}
