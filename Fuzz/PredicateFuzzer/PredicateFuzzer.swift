import Foundation
import Logging
import OpenCoreData

// libFuzzer calls this with each input; returning normally means the input passed. A crash, an
// overflowed stack or a failed check (fatalError) is a finding: libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let format = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    PredicateChecks.shared.check(format)
    return 0
}

/// What every input is put through: parsing with arguments of every kind; printing, and parsing
/// the printed form back (it must parse, print the same, and be equal); evaluating in memory
/// against dictionaries and managed objects, where the reparsed predicate must agree and `NOT`
/// must negate; and nesting past the depth limit.
// libFuzzer runs inputs one at a time, on one thread.
final class PredicateChecks: @unchecked Sendable {
    static let shared = PredicateChecks()

    /// Arguments for `%@`, `%K`, `%d`, `%f`, `%s`, consumed in order by the specifiers a format has.
    private let arguments: [Any?] = ["Brazil", 3, 2.5, "teamName", nil, ["UEFA", "AFC"], Double.nan,
                                     Date(timeIntervalSinceReferenceDate: 86_400), [1, 2], "wins", Decimal(string: "1.5"),
                                     "players.number", -1, "b.*"]
    private let dictionaries: [[String: Any]] = [
        ["teamName": "Brazil", "wins": 3, "score": 2.5, "players": [["name": "Ana", "number": 10], ["name": "Bo", "number": 7]]],
        ["teamName": "é", "wins": 0, "score": Double.nan, "coach": ["name": "Tite"], "players": [] as [Any]],
        [:],
    ]
    private let context: ManagedObjectContext
    private let teams: [FuzzTeam]
    private let teamEntity: EntityDescription

    private init() {
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        do {
            let container = try PersistentContainer(name: "Fuzz", managedObjectClasses: [FuzzTeam.self, FuzzPlayer.self, FuzzCoach.self])
            let description = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
            description.type = InMemoryStoreType
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            let context = container.newBackgroundContext()
            guard let entity = container.managedObjectModel.entitiesByName["FuzzTeam"] else { fatalError("no FuzzTeam entity") }
            self.context = context
            teamEntity = entity
            teams = context.performAndWait { FuzzTeam.samples(in: context) }
        } catch {
            fatalError("cannot set up the fuzzer's store: \(error)")
        }
    }

    func check(_ format: String) {
        guard let predicate = try? FetchPredicate(format: format, argumentArray: arguments) else { return }
        let printed = predicate.predicateFormat
        let reparsed: FetchPredicate
        do {
            reparsed = try FetchPredicate(format: printed)
        } catch {
            fatalError("the printed form does not parse: \(printed.debugDescription) (from \(format.debugDescription)): \(error)")
        }
        if reparsed.predicateFormat != printed {
            fatalError("printing is not stable: \(printed.debugDescription) reprints as \(reparsed.predicateFormat.debugDescription)")
        }
        // NaN equals nothing, not even itself, so a predicate holding it is not equal to its copy.
        if reparsed != predicate, !printed.lowercased().contains("nan") {
            fatalError("the reparsed predicate differs: \(printed.debugDescription) (from \(format.debugDescription))")
        }
        for dictionary in dictionaries where predicate.evaluate(with: dictionary) != reparsed.evaluate(with: dictionary) {
            fatalError("the reparsed predicate evaluates differently on \(dictionary): \(printed.debugDescription)")
        }
        checkObjects(predicate, reparsed, printed)
        checkNesting(predicate)
    }

    /// On managed objects: the reparsed predicate agrees, and NOT negates, wherever the
    /// predicate fits the entity (a MATCHES may stop at its step limit, which is false both ways).
    private func checkObjects(_ predicate: FetchPredicate, _ reparsed: FetchPredicate, _ printed: String) {
        let negated = !predicate
        // A predicate at the nesting limit cannot be negated: `!` then returns the refused
        // predicate, which selects nothing (checkNesting covers it).
        let fits = (try? predicate.validate(for: teamEntity)) != nil && (try? negated.validate(for: teamEntity)) != nil
        context.performAndWait {
            for team in teams {
                let value = predicate.evaluate(with: team)
                if value != reparsed.evaluate(with: team) {
                    fatalError("the reparsed predicate evaluates differently on \(team.teamName): \(printed.debugDescription)")
                }
                if fits, !printed.contains("MATCHES"), negated.evaluate(with: team) == value {
                    fatalError("NOT does not negate \(printed.debugDescription) on \(team.teamName)")
                }
            }
        }
    }

    /// Nesting past the limit gives a predicate that prints as FALSEPREDICATE and selects nothing.
    private func checkNesting(_ predicate: FetchPredicate) {
        var deep = predicate
        for _ in 0...FetchPredicate.maximumNestingDepth { deep = !deep }
        if deep.predicateFormat != "FALSEPREDICATE" || deep.evaluate(with: dictionaries[0]) {
            fatalError("nesting past the limit built \(deep.predicateFormat.prefix(200).debugDescription)")
        }
    }
}

/// The entities evaluated on: every kind of attribute, a to-one and a to-many relationship.
final class FuzzTeam: ManagedObject {
    @Managed var teamName: String = ""
    @Managed var wins: Int16 = 0
    @Managed var rank: Int64?
    @Managed var score: Double?
    @Managed var ratio: Float = 0
    @Managed var cost: Decimal?
    @Managed var active: Bool = false
    @Managed var founded: Date?
    @Managed var logo: Data?
    @Managed var uuid: UUID?
    @Managed var site: URL?
    @Managed(inverse: "team") var coach: FuzzCoach?
    @Managed(inverse: "team") var players: Set<FuzzPlayer>

    static func samples(in context: ManagedObjectContext) -> [FuzzTeam] {
        let brazil = FuzzTeam(context: context)
        brazil.teamName = "Brazil"
        brazil.wins = 3
        brazil.rank = 1
        brazil.score = 2.5
        brazil.cost = Decimal(string: "1.5")
        brazil.active = true
        brazil.founded = Date(timeIntervalSinceReferenceDate: 86_400)
        brazil.logo = Data([1, 2])
        brazil.uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")
        brazil.site = URL(string: "https://a.example/x")
        let coach = FuzzCoach(context: context)
        coach.name = "Tite"
        brazil.coach = coach
        for (name, number) in [("Ana", 10), ("Bo", 7), ("", -1)] {
            let player = FuzzPlayer(context: context)
            player.name = name
            player.number = Int32(number)
            player.team = brazil
        }
        let empty = FuzzTeam(context: context)
        empty.teamName = "é"
        empty.score = .infinity
        return [brazil, empty]
    }
}

final class FuzzPlayer: ManagedObject {
    @Managed var name: String = ""
    @Managed var number: Int32 = 0
    @Managed(inverse: "players") var team: FuzzTeam?
}

final class FuzzCoach: ManagedObject {
    @Managed var name: String = ""
    @Managed(inverse: "coach") var team: FuzzTeam?
}
