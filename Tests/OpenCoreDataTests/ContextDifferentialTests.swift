import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

// Differential fuzzing of child contexts.
//
// Every case is a random script of changes to a graph of related objects, run three ways, each on
// a store of its own:
//
//   1. directly: every step in one root context, saved;
//   2. through one child: the first steps in the root (saved, then left unsaved), the rest in a
//      child, which saves (sometimes midway too), then the root saves;
//   3. through two children: the same, with a middle context between the root and the child.
//
// The model (`GraphModel`) has every kind of relationship, each with an inverse: to-one/to-many
// (`parent`/`children`, cascading), one-to-one (`mentor`/`mentee`, and `badge`/`holder` across
// entities, cascading), many-to-many (`tags`/`nodes`). Steps insert objects, change their
// attributes, set to-ones, add to and remove from to-manys, delete (delete rules run), and save
// one level of the chain. Objects are named by a unique `key` attribute, since object IDs differ
// between stores.
//
// The script is generated while the direct run applies it (each step picks among the objects
// alive there), then replayed in the child runs. The three runs must agree on: which steps could
// be applied (a step whose object is not alive in a child run is a finding), the graph as the
// editing context sees it after the last step, the graph as the root sees it before its final
// save, and the graph as a fresh context reads it from the store afterwards. On a mismatch the
// test prints the seed, the case, the shrunk script and the first differing lines.
//
// Environment variables (all optional):
//   OCD_CTX_FUZZ_SEED=<n>   base seed (decimal or 0x hex); default a fixed seed
//   OCD_CTX_FUZZ_CASES=<n>  cases per store kind; default 40 in memory, 12 on SQLite (whose
//                           files make each case several times slower)
//   OCD_CTX_FUZZ_STEPS=<n>  steps per case; default 60
//   OCD_CTX_FUZZ_ONLY=<n>   run only that case (as printed on failure)

@Suite struct ContextDifferentialTests {
    @Test(arguments: StoreKind.withPostgres)
    func childContextsSaveWhatTheRootWouldHaveSaved(kind: StoreKind) throws {
        let configuration = try #require(ContextFuzzConfiguration.fromEnvironment(kind: kind),
                                         "OCD_CTX_FUZZ_* must be decimal or 0x hex numbers")
        var totals = ContextFuzzScript.Counts()
        for index in configuration.caseIndexes {
            let seed = configuration.caseSeed(index)
            let script = try ContextFuzzScript.generate(seed: seed, steps: configuration.steps, kind: kind)
            totals.add(script.counts)
            guard let mismatch = try ContextFuzzCase.firstMismatch(script.steps, kind: kind, direct: script.direct) else { continue }
            let shrunk = try ContextFuzzCase.shrink(script.steps, kind: kind)
            let shrunkMismatch = try ContextFuzzCase.firstMismatch(shrunk, kind: kind) ?? mismatch
            Issue.record("""
                child contexts disagree with the root (\(kind)), OCD_CTX_FUZZ_SEED=\(configuration.seedText) OCD_CTX_FUZZ_ONLY=\(index)
                \(mismatch)
                shrunk to \(shrunk.count) of \(script.steps.count) steps:
                \(shrunk.map { "  \($0)" }.joined(separator: "\n"))
                which gives: \(shrunkMismatch)
                """)
            return
        }
        print("ContextDifferentialTests (\(kind)): OCD_CTX_FUZZ_SEED=\(configuration.seedText), \(configuration.caseIndexes.count) cases, \(totals)")
        // The scripts must exercise what they are meant to.
        if configuration.caseIndexes.count >= 10 {
            #expect(totals.inserts > 0 && totals.deletes > 0 && totals.attributeChanges > 0)
            #expect(totals.toOneChanges > 0 && totals.additions > 0 && totals.removals > 0 && totals.saves > 0)
            #expect(totals.cascades > 0, "no delete cascaded")
        }
    }
}

// MARK: - Configuration

struct ContextFuzzConfiguration {
    var seed: UInt64 = 0xC0_47E7
    var cases: Int
    var steps = 60
    var only: Int?

    var seedText: String { "0x" + String(seed, radix: 16) }
    var caseIndexes: [Int] { only.map { [$0] } ?? Array(0..<cases) }

    func caseSeed(_ index: Int) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        return generator.next()
    }

    /// The configuration the environment asks for, or nil if a variable is not a number.
    static func fromEnvironment(kind: StoreKind) -> ContextFuzzConfiguration? {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ContextFuzzConfiguration(cases: kind == .inMemory ? 40 : 12)
        var valid = true
        func number(_ name: String) -> UInt64? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            let value = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            if value == nil { valid = false }
            return value
        }
        if let seed = number("OCD_CTX_FUZZ_SEED") { configuration.seed = seed }
        if let cases = number("OCD_CTX_FUZZ_CASES") { configuration.cases = Int(cases) }
        if let steps = number("OCD_CTX_FUZZ_STEPS") { configuration.steps = max(1, Int(steps)) }
        if let only = number("OCD_CTX_FUZZ_ONLY") { configuration.only = Int(only) }
        return valid ? configuration : nil
    }
}

// MARK: - Model

/// Nodes, tags and badges, with every kind of relationship and an inverse for each.
enum GraphModel {
    static let entityNames = ["Node", "Tag", "Badge"]

    /// Relationships by entity, with whether each is to-many.
    static let relationships: [String: [(name: String, toMany: Bool)]] = [
        "Node": [("parent", false), ("children", true), ("mentor", false), ("mentee", false), ("tags", true), ("badge", false)],
        "Tag": [("nodes", true)],
        "Badge": [("holder", false)],
    ]

    /// The destination entity of each relationship, by name (names are unique across entities).
    static let destinations = [
        "parent": "Node", "children": "Node", "mentor": "Node", "mentee": "Node", "tags": "Tag", "badge": "Badge",
        "nodes": "Node", "holder": "Node",
    ]

    /// A new model (a model freezes once a coordinator uses it).
    static func make() -> ManagedObjectModel {
        let node = EntityDescription(name: "Node")
        let tag = EntityDescription(name: "Tag")
        let badge = EntityDescription(name: "Badge")
        func pair(_ first: RelationshipDescription, _ second: RelationshipDescription) -> [RelationshipDescription] {
            first.inverseRelationship = second
            second.inverseRelationship = first
            return [first, second]
        }
        let family = pair(RelationshipDescription(name: "parent", destination: node),
                          RelationshipDescription(name: "children", destination: node, toMany: true, deleteRule: .cascadeDeleteRule))
        let mentoring = pair(RelationshipDescription(name: "mentor", destination: node),
                             RelationshipDescription(name: "mentee", destination: node))
        let tagging = pair(RelationshipDescription(name: "tags", destination: tag, toMany: true),
                           RelationshipDescription(name: "nodes", destination: node, toMany: true))
        let holding = pair(RelationshipDescription(name: "badge", destination: badge, deleteRule: .cascadeDeleteRule),
                           RelationshipDescription(name: "holder", destination: node))
        node.properties = attributes() + family + mentoring + [tagging[0], holding[0]]
        tag.properties = attributes() + [tagging[1]]
        badge.properties = attributes() + [holding[1]]
        return ManagedObjectModel(entities: [node, tag, badge])
    }

    private static func attributes() -> [PropertyDescription] {
        [
            AttributeDescription(name: "key", type: .integer64, isOptional: false),
            AttributeDescription(name: "label", type: .string),
            AttributeDescription(name: "weight", type: .integer32, isOptional: false, defaultValue: 0),
        ]
    }
}

// MARK: - Scripts

/// Where a step runs: the root context, or the context that edits (the root itself in the
/// direct run).
enum ContextFuzzPlace: String {
    case root, leaf
}

/// One change, naming objects by key.
enum ContextFuzzStep: CustomStringConvertible {
    case insert(entity: String, key: Int64, ContextFuzzPlace)
    case setLabel(key: Int64, String?, ContextFuzzPlace)
    case setWeight(key: Int64, Int32, ContextFuzzPlace)
    case setToOne(key: Int64, relationship: String, target: Int64?, ContextFuzzPlace)
    case add(key: Int64, relationship: String, target: Int64, ContextFuzzPlace)
    case remove(key: Int64, relationship: String, target: Int64, ContextFuzzPlace)
    case delete(key: Int64, ContextFuzzPlace)
    /// Saves the context `level` steps above the editing one (0 is the editing context itself).
    case save(level: Int)
    /// Saves the root context.
    case saveRoot

    var description: String {
        switch self {
        case .insert(let entity, let key, let place): "\(place): insert \(entity) #\(key)"
        case .setLabel(let key, let label, let place): "\(place): #\(key).label = \(label.map { "\"\($0)\"" } ?? "nil")"
        case .setWeight(let key, let weight, let place): "\(place): #\(key).weight = \(weight)"
        case .setToOne(let key, let relationship, let target, let place): "\(place): #\(key).\(relationship) = \(target.map { "#\($0)" } ?? "nil")"
        case .add(let key, let relationship, let target, let place): "\(place): #\(key).\(relationship) += #\(target)"
        case .remove(let key, let relationship, let target, let place): "\(place): #\(key).\(relationship) -= #\(target)"
        case .delete(let key, let place): "\(place): delete #\(key)"
        case .save(let level): "save level \(level)"
        case .saveRoot: "root: save"
        }
    }

    var place: ContextFuzzPlace {
        switch self {
        case .insert(_, _, let place), .setLabel(_, _, let place), .setWeight(_, _, let place),
             .setToOne(_, _, _, let place), .add(_, _, _, let place), .remove(_, _, _, let place), .delete(_, let place):
            place
        case .save:
            .leaf
        case .saveRoot:
            .root
        }
    }
}

/// A random script, generated while the direct run applies it.
struct ContextFuzzScript {
    struct Counts: CustomStringConvertible {
        var inserts = 0, attributeChanges = 0, toOneChanges = 0, additions = 0, removals = 0, deletes = 0, saves = 0, cascades = 0

        mutating func add(_ other: Counts) {
            inserts += other.inserts; attributeChanges += other.attributeChanges; toOneChanges += other.toOneChanges
            additions += other.additions; removals += other.removals; deletes += other.deletes
            saves += other.saves; cascades += other.cascades
        }

        var description: String {
            "\(inserts) inserts, \(attributeChanges) attribute changes, \(toOneChanges) to-one changes, \(additions) additions, \(removals) removals, \(deletes) deletes (\(cascades) cascading), \(saves) saves"
        }
    }

    var steps: [ContextFuzzStep] = []
    var counts = Counts()
    /// What the direct run that generated the script gave.
    var direct = ContextFuzzOutcome()

    /// The steps are in three phases: the root builds a graph and saves it, changes it without
    /// saving, then the editing context works on it, saving now and then.
    static func generate(seed: UInt64, steps count: Int, kind: StoreKind) throws -> ContextFuzzScript {
        var random = SplitMix64(seed: seed)
        let run = try ContextFuzzRun(kind: kind, depth: 0)
        var script = ContextFuzzScript()
        let rootSteps = count / 3
        for index in 0..<count {
            let place: ContextFuzzPlace = index < rootSteps * 2 ? .root : .leaf
            let step = script.nextStep(place: place, in: run, random: &random)
            let deletedBefore = run.deletedCount(at: place)
            ContextFuzzCase.apply(step, number: script.steps.count, to: run, recordingIn: &script.direct)
            if case .delete = step, run.deletedCount(at: place) > deletedBefore + 1 { script.counts.cascades += 1 }
            script.steps.append(step)
            if index == rootSteps - 1 {
                ContextFuzzCase.apply(.saveRoot, number: script.steps.count, to: run, recordingIn: &script.direct)
                script.steps.append(.saveRoot)
            }
        }
        try ContextFuzzCase.finish(run, recordingIn: &script.direct)
        return script
    }

    private mutating func nextStep(place: ContextFuzzPlace, in run: ContextFuzzRun, random: inout SplitMix64) -> ContextFuzzStep {
        let alive = run.aliveObjects(at: place)
        let roll = Int.random(in: 0..<100, using: &random)
        if alive.count < 3 || roll < 22 {
            counts.inserts += 1
            return .insert(entity: GraphModel.entityNames.randomElement(using: &random)!, key: run.nextKey(), place)
        }
        let (key, entity) = alive.randomElement(using: &random)!
        func target(of relationship: String) -> Int64? {
            let destination = GraphModel.destinations[relationship]
            return alive.filter { $0.entity == destination }.randomElement(using: &random)?.key
        }
        switch roll {
        case ..<32:
            counts.attributeChanges += 1
            return .setLabel(key: key, Bool.random(using: &random) ? ["a", "b", "c", ""].randomElement(using: &random) : nil, place)
        case ..<40:
            counts.attributeChanges += 1
            return .setWeight(key: key, Int32.random(in: -3...3, using: &random), place)
        case ..<88:
            let relationship = GraphModel.relationships[entity]!.randomElement(using: &random)!
            guard let other = target(of: relationship.name) else { return .setWeight(key: key, 9, place) }
            if !relationship.toMany {
                counts.toOneChanges += 1
                return .setToOne(key: key, relationship: relationship.name, target: roll < 48 ? nil : other, place)
            }
            let current = run.targets(of: key, relationship.name, at: place)
            if roll < 62, let removed = current.randomElement(using: &random) {
                counts.removals += 1
                return .remove(key: key, relationship: relationship.name, target: removed, place)
            }
            counts.additions += 1
            return .add(key: key, relationship: relationship.name, target: other, place)
        case ..<94 where place == .leaf:
            counts.saves += 1
            return .save(level: Int.random(in: 0...2, using: &random))
        default:
            counts.deletes += 1
            return .delete(key: key, place)
        }
    }
}

// MARK: - Runs

/// A store, a root context and `depth` child contexts, with the objects of the root and of the
/// editing context by key.
final class ContextFuzzRun {
    let stack: TestStack
    let chain: ContextChain
    private var objects: [ContextFuzzPlace: [Int64: ManagedObject]] = [:]
    private var lastKey: Int64 = 0

    init(kind: StoreKind, depth: Int) throws {
        stack = try TestStack(kind, model: GraphModel.make())
        chain = ContextChain(stack, depth: depth)
    }

    private func context(at place: ContextFuzzPlace) -> ManagedObjectContext {
        place == .root ? chain.root : chain.leaf
    }

    func nextKey() -> Int64 {
        lastKey += 1
        return lastKey
    }

    /// The objects of a context, by key: read from the context the first time.
    private func objects(at place: ContextFuzzPlace) throws -> [Int64: ManagedObject] {
        if chain.contexts.count == 1 { return try objects(at: .root, readingFrom: chain.root) }
        return try objects(at: place, readingFrom: context(at: place))
    }

    private func objects(at place: ContextFuzzPlace, readingFrom context: ManagedObjectContext) throws -> [Int64: ManagedObject] {
        if let known = objects[place] { return known }
        var known: [Int64: ManagedObject] = [:]
        for entity in GraphModel.entityNames {
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity)) {
                known[(object.value(forKey: "key") as? Int64) ?? -1] = object
            }
        }
        objects[place] = known
        return known
    }

    private func alive(_ key: Int64, at place: ContextFuzzPlace) throws -> ManagedObject? {
        guard let object = try objects(at: place)[key], !object.isDeleted, object.managedObjectContext != nil else { return nil }
        return object
    }

    func aliveObjects(at place: ContextFuzzPlace) -> [(key: Int64, entity: String)] {
        context(at: place).performAndWait {
            let known = (try? objects(at: place)) ?? [:]
            return known.keys.sorted().compactMap { key in
                guard let object = try? alive(key, at: place) else { return nil }
                return (key, object.entity.name ?? "")
            }
        }
    }

    func deletedCount(at place: ContextFuzzPlace) -> Int {
        context(at: place).performAndWait {
            ((try? objects(at: place)) ?? [:]).values.filter { $0.isDeleted || $0.managedObjectContext == nil }.count
        }
    }

    func targets(of key: Int64, _ relationship: String, at place: ContextFuzzPlace) -> [Int64] {
        context(at: place).performAndWait {
            guard let object = try? alive(key, at: place) else { return [] }
            return ((object.value(forKey: relationship) as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: "key") as? Int64 }.sorted()
        }
    }

    /// Applies a step; false if an object it names is not alive here.
    func apply(_ step: ContextFuzzStep) throws -> Bool {
        switch step {
        case .save(let level):
            let contexts = Array(chain.contexts.reversed())
            guard level < contexts.count else { return true }
            let context = contexts[level]
            try context.performAndWait { try context.save() }
            return true
        case .saveRoot:
            try chain.root.performAndWait { try chain.root.save() }
            return true
        default:
            break
        }
        let place = chain.contexts.count == 1 ? .root : step.place
        let context = context(at: place)
        return try context.performAndWait {
            var known = try objects(at: place)
            switch step {
            case .insert(let entity, let key, _):
                let object = try EntityDescription.insertNewObject(forEntityName: entity, into: context)
                object.setValue(key, forKey: "key")
                known[key] = object
                objects[place] = known
                lastKey = max(lastKey, key)
            case .setLabel(let key, let label, _):
                guard let object = try alive(key, at: place) else { return false }
                object.setValue(label, forKey: "label")
            case .setWeight(let key, let weight, _):
                guard let object = try alive(key, at: place) else { return false }
                object.setValue(weight, forKey: "weight")
            case .setToOne(let key, let relationship, let target, _):
                guard let object = try alive(key, at: place) else { return false }
                var destination: ManagedObject?
                if let target {
                    guard let found = try alive(target, at: place) else { return false }
                    destination = found
                }
                object.setValue(destination, forKey: relationship)
            case .add(let key, let relationship, let target, _), .remove(let key, let relationship, let target, _):
                guard let object = try alive(key, at: place), let destination = try alive(target, at: place) else { return false }
                let set = object.mutableSetValue(forKey: relationship)
                if case .add = step { set.add(destination) } else { set.remove(destination) }
            case .delete(let key, _):
                guard let object = try alive(key, at: place) else { return false }
                context.delete(object)
            case .save, .saveRoot:
                break
            }
            context.processPendingChanges()
            return true
        }
    }

    /// The graph as `context` sees it: one line per object, by key, with its attributes and the
    /// keys of its relationships' targets.
    static func graph(in context: ManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            var lines: [String] = []
            for entity in GraphModel.entityNames {
                let request = FetchRequest<ManagedObject>(entityName: entity)
                request.sortDescriptors = [FetchSortDescriptor(key: "key")]
                for object in try context.fetch(request) {
                    var line = "\(entity) #\(object.value(forKey: "key") ?? "?")"
                    line += " label=\(object.value(forKey: "label").map { "\"\($0)\"" } ?? "nil") weight=\(object.value(forKey: "weight") ?? "?")"
                    for relationship in GraphModel.relationships[entity]! {
                        line += " \(relationship.name)=" + Self.describeTargets(object.value(forKey: relationship.name), toMany: relationship.toMany)
                    }
                    lines.append(line)
                }
            }
            return lines
        }
    }

    private static func describeTargets(_ value: Any?, toMany: Bool) -> String {
        func name(_ object: ManagedObject) -> String {
            let key = object.value(forKey: "key").map { "#\($0)" } ?? "#?"
            return object.isDeleted ? key + "(deleted)" : key
        }
        if toMany { return "[" + ((value as? Set<ManagedObject>) ?? []).map(name).sorted().joined(separator: ",") + "]" }
        return (value as? ManagedObject).map(name) ?? "nil"
    }
}

// MARK: - Cases

/// What one run of a script gave.
struct ContextFuzzOutcome: Equatable {
    /// Steps that named an object not alive in the run, or whose save threw.
    var failedSteps: [String] = []
    /// The graph in the editing context after the last step.
    var edited: [String] = []
    /// The graph in the root before its final save.
    var root: [String] = []
    /// The graph in the store.
    var stored: [String] = []
}

enum ContextFuzzCase {
    /// The first way a child run differs from the direct run, or nil if they agree.
    ///
    /// - Parameter direct: The direct run's outcome, if known.
    static func firstMismatch(_ steps: [ContextFuzzStep], kind: StoreKind, direct: ContextFuzzOutcome? = nil) throws -> String? {
        let direct = try direct ?? outcome(of: steps, kind: kind, depth: 0)
        for depth in [1, 2] {
            let child = try outcome(of: steps, kind: kind, depth: depth)
            if let difference = difference(direct, child) { return "through \(depth) child context(s): \(difference)" }
        }
        return nil
    }

    static func outcome(of steps: [ContextFuzzStep], kind: StoreKind, depth: Int) throws -> ContextFuzzOutcome {
        let run = try ContextFuzzRun(kind: kind, depth: depth)
        var outcome = ContextFuzzOutcome()
        for (index, step) in steps.enumerated() { apply(step, number: index, to: run, recordingIn: &outcome) }
        try finish(run, recordingIn: &outcome)
        return outcome
    }

    /// Applies a step, noting in `outcome` if it could not be applied.
    static func apply(_ step: ContextFuzzStep, number: Int, to run: ContextFuzzRun, recordingIn outcome: inout ContextFuzzOutcome) {
        do {
            if try !run.apply(step) { outcome.failedSteps.append("step \(number) (\(step)) names an object not alive") }
        } catch {
            outcome.failedSteps.append("step \(number) (\(step)) threw \(error)")
        }
    }

    /// Reads the graph in the editing context, saves up to the root (reading the root's graph
    /// before its save), and reads the store's graph.
    static func finish(_ run: ContextFuzzRun, recordingIn outcome: inout ContextFuzzOutcome) throws {
        outcome.edited = try ContextFuzzRun.graph(in: run.chain.leaf)
        for context in run.chain.contexts.dropFirst().reversed() {
            do {
                try context.performAndWait { try context.save() }
            } catch {
                outcome.failedSteps.append("a final child save threw \(error)")
            }
        }
        outcome.root = try ContextFuzzRun.graph(in: run.chain.root)
        do {
            try run.chain.root.performAndWait { try run.chain.root.save() }
        } catch {
            outcome.failedSteps.append("the final root save threw \(error)")
        }
        outcome.stored = try ContextFuzzRun.graph(in: run.stack.newContext())
    }

    private static func difference(_ expected: ContextFuzzOutcome, _ actual: ContextFuzzOutcome) -> String? {
        if expected.failedSteps != actual.failedSteps {
            return "failed steps differ: directly \(expected.failedSteps), here \(actual.failedSteps)"
        }
        for (name, left, right) in [("the editing context", expected.edited, actual.edited),
                                    ("the root before its save", expected.root, actual.root),
                                    ("the store", expected.stored, actual.stored)] where left != right {
            let missing = left.filter { !right.contains($0) }.prefix(4)
            let extra = right.filter { !left.contains($0) }.prefix(4)
            return "\(name) differs (\(left.count) objects directly, \(right.count) here)\n  directly: \(missing.joined(separator: "\n            "))\n  here:     \(extra.joined(separator: "\n            "))"
        }
        return nil
    }

    /// The shortest script found, by dropping steps one at a time, that still gives a mismatch.
    static func shrink(_ steps: [ContextFuzzStep], kind: StoreKind) throws -> [ContextFuzzStep] {
        var current = steps
        var progress = true
        while progress {
            progress = false
            var index = current.count - 1
            while index >= 0 {
                var candidate = current
                candidate.remove(at: index)
                if try firstMismatch(candidate, kind: kind) != nil {
                    current = candidate
                    progress = true
                }
                index -= 1
            }
        }
        return current
    }
}
