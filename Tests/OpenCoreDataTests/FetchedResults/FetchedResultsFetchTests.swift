import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// FRC-SPEC sections 2, 3 and 9: performFetch(), section naming and ordering, and the fetch
/// request's options under a controller.
@Suite struct FetchedResultsFetchTests {
    private static let decks = [CardSeed("a1", deck: "A", rank: 1), CardSeed("a2", deck: "A", rank: 2),
                                CardSeed("b1", deck: "B", rank: 1), CardSeed("c1", deck: "C", rank: 1),
                                CardSeed("c2", deck: "C", rank: 2)]

    /// `count` cards ranked 0..<count, in decks of 100 ("D0", "D1", …).
    private static func many(_ count: Int) -> [CardSeed] {
        (0..<count).map { CardSeed("t\($0)", deck: "D\($0 / 100)", rank: Int32($0)) }
    }

    // MARK: performFetch()

    // FET-01: a fetch replaces everything the controller held. Our port runs performFetch() on
    // the context's queue and stops a caller that is off it (THR-01), rather than hopping there.
    @Test(arguments: StoreKind.withPostgres)
    func aFetchReplacesThePreviousResultsAndSections(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.decks)
        let (first, second) = try context.performAndWait { () throws -> ([String], [String]) in
            let request = try Spec.request(sectioned: true)
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "deck", cacheName: nil)
            try controller.performFetch()
            let first = Spec.layout(controller)
            request.predicate = try FetchPredicate(format: "rank == 2")
            try controller.performFetch()
            return (first, Spec.layout(controller))
        }
        #expect(first == ["A: a1 a2", "B: b1", "C: c1 c2"])
        #expect(second == ["A: a2", "C: c2"])
    }

    // FET-01 (async perform): a fetch from a block on the context's queue works.
    @Test func aFetchRunsInsideAnAsynchronousPerformBlock() async throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try Spec.seed(context, Self.decks)
        let layout = try await context.perform { () throws -> [String] in
            let controller = try Spec.controller(context, sectioned: true)
            try controller.performFetch()
            return Spec.layout(controller)
        }
        #expect(layout == ["A: a1 a2", "B: b1", "C: c1 c2"])
    }

    // FET-02, OPT-06: parity. `returnsObjectsAsFaults = false` changes nothing: the controller
    // reads identities (and section counts), and objects load when read.
    @Test func returnsObjectsAsFaultsDoesNotChangeTheFetch() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        let context = stack.newContext()
        try Spec.seed(context, Self.decks)
        let fresh = stack.newContext()
        let (faulting, notFaulting) = try fresh.performAndWait { () throws -> (([String], [String]), ([String], [String])) in
            func run(_ returnsFaults: Bool) throws -> ([String], [String]) {
                let request = try Spec.request(sectioned: true)
                request.returnsObjectsAsFaults = returnsFaults
                let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: fresh,
                                                          sectionNameKeyPath: "deck", cacheName: nil)
                let selects = try log.selects { try controller.performFetch() }
                return (selects, Spec.layout(controller))
            }
            return (try run(true), try run(false))
        }
        #expect(faulting.0 == notFaulting.0)
        #expect(faulting.0.allSatisfy { !$0.contains("\"note\"") }, "the fetch read values: \(faulting.0)")
        #expect(faulting.1 == notFaulting.1)
    }

    // FET-03
    @Test(arguments: StoreKind.withPostgres)
    func anUnsectionedControllerHasOneSectionEvenWhenEmpty(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let sections = try context.performAndWait { () throws -> [String] in
            let controller = try Spec.controller(context)
            try controller.performFetch()
            return controller.sections?.map { "\($0.name.debugDescription) \($0.indexTitle ?? "nil") \($0.numberOfObjects)" } ?? []
        }
        #expect(sections == [#""" nil 0"#])
    }

    // FET-04
    @Test(arguments: StoreKind.withPostgres)
    func aSectionedControllerWithNoResultsHasNoSections(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let count = try context.performAndWait { () throws -> Int? in
            let controller = try Spec.controller(context, sectioned: true)
            try controller.performFetch()
            return controller.sections?.count
        }
        #expect(count == 0)
    }

    // FET-05: the grouped-count path (a clean root context on SQLite) and the walk (unsaved
    // changes, a child context, a fetch limit, the in-memory store) give the same sections.
    @Test(arguments: StoreKind.withPostgres)
    func everyWayOfComputingSectionsGivesTheSameSections(kind: StoreKind) throws {
        let stack = try TestStack(kind, recordingSQL: true)
        let log = try #require(stack.log)
        let context = stack.newContext()
        try Spec.seed(context, Self.decks + [CardSeed("n1", deck: nil, rank: 1), CardSeed("c3", deck: "C", rank: 3)])
        let root = stack.newContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = root
        func layout(_ context: ManagedObjectContext, limit: Int = 0) throws -> (layout: [String], grouped: Bool) {
            try context.performAndWait {
                let request = try Spec.request(sectioned: true)
                request.fetchLimit = limit
                let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                          sectionNameKeyPath: "deck", cacheName: nil)
                let selects = try log.selects { try controller.performFetch() }
                return (Spec.layout(controller), selects.contains { $0.contains("GROUP BY") })
            }
        }
        let clean = try layout(root)
        let limited = try layout(root, limit: 100)
        let inChild = try layout(child)
        let dirty = try root.performAndWait { () throws -> (layout: [String], grouped: Bool) in
            let unrelated = Team(context: root)
            unrelated.teamName = "Unsaved"
            unrelated.qualifyingZone = "X"
            defer { withExtendedLifetime(unrelated) {} }
            return try layout(root)
        }
        let expected = [": n1", "A: a1 a2", "B: b1", "C: c1 c2 c3"]
        #expect(clean.layout == expected)
        #expect(limited.layout == expected)
        #expect(inChild.layout == expected)
        #expect(dirty.layout == expected)
        #expect(clean.grouped == (kind != .inMemory))
        #expect(!limited.grouped && !inChild.grouped && !dirty.grouped)
    }

    // FET-06, SEC-02: a case-insensitive sort with case-sensitive names: "a" comes back after
    // "A". Error 134060 with Core Data's reason, and no results afterwards.
    @Test(arguments: StoreKind.withPostgres)
    func aSectionNameThatComesBackFailsTheFetchWithError134060(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, [CardSeed("x", deck: "a", rank: 1), CardSeed("y", deck: "A", rank: 2), CardSeed("z", deck: "a", rank: 3)])
        let (code, message, objects, sections) = try context.performAndWait { () throws -> (Int?, String, Int?, Int?) in
            let request = Card.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "deck", comparison: .caseInsensitive), FetchSortDescriptor(key: "rank")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "deck", cacheName: nil)
            var code: Int?
            var message = ""
            do {
                try controller.performFetch()
            } catch let error as FetchedResultsError {
                code = error.code.rawValue
                message = error.message
            }
            return (code, message, controller.fetchedObjects?.count, controller.sections?.count)
        }
        #expect(code == 134060)
        #expect(message == "The fetched object at index 2 has an out of order section name 'a'. Objects must be sorted by section name")
        #expect(objects == nil && sections == nil)
    }

    // FET-07. Deliberate difference: a section key that is not the first sort key is checked on
    // every path, including the one where Apple counts groups and silently mis-sections.
    @Test(arguments: StoreKind.withPostgres)
    func sectionsThatDoNotFollowTheSortOrderFailTheFetchOnEveryPath(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        // By rank: A, B, A.
        try Spec.seed(context, [CardSeed("x", deck: "A", rank: 1), CardSeed("y", deck: "B", rank: 2), CardSeed("z", deck: "A", rank: 3)])
        let root = stack.newContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = root
        func code(in context: ManagedObjectContext) -> Int? {
            context.performAndWait {
                let request = Card.fetchRequest()
                request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
                let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                          sectionNameKeyPath: "deck", cacheName: nil)
                do { try controller.performFetch() } catch let error as FetchedResultsError { return error.code.rawValue } catch {}
                return nil
            }
        }
        #expect(code(in: root) == 134060)
        #expect(code(in: child) == 134060)
    }

    // FET-07, SEC-03, SEC-06 (the reported symptom): sorted by a related object's order and
    // sectioned by its name, sections follow the sort, not the alphabet.
    @Test(arguments: StoreKind.withPostgres)
    func sectionsThroughARelationshipFollowTheSortOrder(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            for (name, wins, players) in [("Brazil", 1, ["Pelé", "Zico"]), ("Argentina", 2, ["Messi"]), ("Chile", 3, ["Vidal"])] {
                let team = Team(context: context)
                team.teamName = name
                team.qualifyingZone = "CONMEBOL"
                team.wins = Int16(wins)
                for playerName in players {
                    let player = Player(context: context)
                    player.name = playerName
                    player.team = team
                }
            }
            try context.save()
        }
        let fresh = stack.newContext()
        let layout = try fresh.performAndWait { () throws -> [String] in
            let request = Player.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "team.wins"), FetchSortDescriptor(key: "name")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: fresh,
                                                      sectionNameKeyPath: "team.teamName", cacheName: nil)
            try controller.performFetch()
            return (controller.sections ?? []).map { section in
                "\(section.name): \((section.objects ?? []).compactMap { ($0 as? Player)?.name }.joined(separator: " "))"
            }
        }
        #expect(layout == ["Brazil: Pelé Zico", "Argentina: Messi", "Chile: Vidal"])
    }

    // FET-08, SNP-04: one snapshot per successful fetch, from inside performFetch(); none for a
    // failed one; a classic delegate hears nothing from a fetch.
    @Test(arguments: StoreKind.withPostgres)
    func aSnapshotDelegateHearsEachSuccessfulFetchAndAClassicOneNothing(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.decks)
        let (snapshots, snapshotClassicCalls, classicCalls) = try context.performAndWait { () throws -> ([Int], Int, Int) in
            let request = try Spec.request(sectioned: true)
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "deck", cacheName: nil)
            let recorder = SnapshotRecorder()
            controller.delegate = recorder
            var counts: [Int] = []
            try controller.performFetch()
            counts.append(recorder.snapshots.count)
            try controller.performFetch()
            counts.append(recorder.snapshots.count)
            request.sortDescriptors = nil
            _ = try? controller.performFetch()
            counts.append(recorder.snapshots.count)

            let classic = try Spec.controller(context, sectioned: true)
            let log = CallbackLog()
            classic.delegate = log
            try classic.performFetch()
            try classic.performFetch()
            return (counts, recorder.classicCalls, log.log.count)
        }
        #expect(snapshots == [1, 2, 2])
        #expect(snapshotClassicCalls == 0)
        #expect(classicCalls == 0)
    }

    // FET-09: a fetch after changing the request reports no changes; the client reloads.
    @Test(arguments: StoreKind.withPostgres)
    func refetchingWithAnotherPredicateReportsNoChanges(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.decks)
        let (calls, layout) = try context.performAndWait { () throws -> ([String], [String]) in
            let request = try Spec.request(sectioned: true)
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "deck", cacheName: nil)
            let log = CallbackLog()
            controller.delegate = log
            try controller.performFetch()
            request.predicate = try FetchPredicate(format: "deck != %@", "B")
            try controller.performFetch()
            return (log.log, Spec.layout(controller))
        }
        #expect(calls.isEmpty)
        #expect(layout == ["A: a1 a2", "C: c1 c2"])
    }

    // FET-10
    @Test(arguments: StoreKind.withPostgres)
    func objectsWithANilSectionValueGoIntoASectionNamedEmpty(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, [CardSeed("x", deck: "b", rank: 1), CardSeed("y", deck: nil, rank: 1), CardSeed("z", deck: "a", rank: 1)])
        let names = try context.performAndWait { () throws -> [String] in
            let controller = try Spec.controller(context, sectioned: true)
            try controller.performFetch()
            return controller.sections?.map(\.name) ?? []
        }
        #expect(names == ["", "a", "b"])
    }

    // MARK: Section names

    // SEC-01: numbers and booleans by their description, to-one relationships by object URI.
    @Test(arguments: StoreKind.withPostgres)
    func sectionNamesAreTheTextOfTheSectionValue(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, [CardSeed("x", rank: 1, visible: false), CardSeed("y", rank: 2), CardSeed("z", rank: 2)])
        let (byRank, byFlag) = try context.performAndWait { () throws -> ([String], [String]) in
            func names(_ key: String) throws -> [String] {
                let request = Card.fetchRequest()
                request.sortDescriptors = [FetchSortDescriptor(key: key), FetchSortDescriptor(key: "title")]
                let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                          sectionNameKeyPath: key, cacheName: nil)
                try controller.performFetch()
                return controller.sections?.map(\.name) ?? []
            }
            return (try names("rank"), try names("visible"))
        }
        #expect(byRank == ["1", "2"])
        #expect(byFlag == ["0", "1"])

        let (teamURIs, names) = try context.performAndWait { () throws -> ([String], [String]) in
            var teams: [Team] = []
            for name in ["Brazil", "Chile"] {
                let team = Team(context: context)
                team.teamName = name
                team.qualifyingZone = "CONMEBOL"
                let player = Player(context: context)
                player.name = "\(name) player"
                player.team = team
                teams.append(team)
            }
            try context.save()
            let request = Player.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "team.teamName")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "team", cacheName: nil)
            try controller.performFetch()
            return (teams.map { $0.objectID.uriRepresentation().absoluteString }, controller.sections?.map(\.name) ?? [])
        }
        #expect(names == teamURIs)
        #expect(names.allSatisfy { $0.hasPrefix("x-coredata://") })
    }

    // SEC-05: a transient section key path is allowed; its values are read from the objects.
    @Test func aTransientSectionKeyPathIsAllowed() throws {
        let model = try ManagedObjectModel(managedObjectClasses: [Ticket.self])
        let stack = try TestStack(.sqlite, model: model)
        let context = stack.newContext()
        let layout = try context.performAndWait { () throws -> [String] in
            context.retainsRegisteredObjects = true
            for (title, row) in [("a", 1), ("b", 2), ("c", 11)] {
                let ticket = Ticket(context: context)
                ticket.row = Int32(row)
                ticket.title = title
                ticket.block = row < 10 ? "front" : "back"
            }
            try context.save()
            let request = Ticket.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "row")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "block", cacheName: nil)
            try controller.performFetch()
            return (controller.sections ?? []).map { "\($0.name) \($0.numberOfObjects)" }
        }
        #expect(layout == ["front 2", "back 1"])
    }

    // SEC-07
    @Test(arguments: StoreKind.withPostgres)
    func theOnlyObjectMovingToANewSectionDeletesOneSectionAndInsertsTheOther(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, [CardSeed("x", deck: "a", rank: 1), CardSeed("y", deck: "b", rank: 1)])
        let changes = try context.performAndWait { () throws -> Set<String> in
            let controller = try Spec.controller(context, sectioned: true)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            try #require(cards["x"]).deck = "c"
            context.processPendingChanges()
            return Spec.describe(try #require(recorder.batches.first), names: Spec.names(cards.values))
        }
        #expect(changes == ["section delete 0 a", "section insert 1 c", "move x [0,0]→[1,0]"])
    }

    // MARK: Options

    // OPT-01, OPT-03: with a batch size the fetch reads identities only; reading a row loads its
    // batch in one query; counting loads nothing.
    @Test func aBatchSizeFetchesIdentitiesAndLoadsOneBatchPerRowRead() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.many(1000))
        let context = stack.newContext()
        let (fetch, count, row45, neighbours) = try context.performAndWait { () throws -> ([String], [String], [String], [String]) in
            let request = try Spec.request()
            request.fetchBatchSize = 20
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            let fetch = try log.selects { try controller.performFetch() }
            let count = log.selects { #expect(controller.fetchedObjects?.count == 1000) }
            var held: [Card] = []
            let row45 = log.selects { held.append(controller.object(at: IndexPath(row: 45, section: 0))); _ = held.last?.title }
            let neighbours = log.selects {
                for row in 40..<60 { held.append(controller.object(at: IndexPath(row: row, section: 0))); _ = held.last?.title }
            }
            return (fetch, count, row45, neighbours)
        }
        #expect(fetch.count == 1 && fetch.allSatisfy { !$0.contains("\"note\"") }, "\(fetch)")
        #expect(count.isEmpty)
        // One query for the batch of 20: its statement has 32 places, the next power of two
        // (padded with the last key; see SQLiteStoreBackend.keyLookup).
        #expect(row45.count == 1 && row45[0].components(separatedBy: "?").count - 1 == 32, "\(row45)")
        #expect(neighbours.isEmpty, "\(neighbours)")
    }

    // OPT-02. Deliberate difference: batching works in child contexts too.
    @Test func aBatchSizeWorksInAChildContext() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), Self.many(1000))
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = stack.newContext()
        let (fetch, row45, count) = try child.performAndWait { () throws -> ([String], [String], Int) in
            let request = try Spec.request()
            request.fetchBatchSize = 20
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: child,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            let fetch = try log.selects { try controller.performFetch() }
            var held: Card?
            let row45 = log.selects { held = controller.object(at: IndexPath(row: 45, section: 0)); _ = held?.title }
            return (fetch, row45, controller.fetchedObjects?.count ?? 0)
        }
        #expect(count == 1000)
        #expect(fetch.count == 1 && fetch.allSatisfy { !$0.contains("\"note\"") }, "\(fetch)")
        // One query for the batch of 20: its statement has 32 places, the next power of two
        // (padded with the last key; see SQLiteStoreBackend.keyLookup).
        #expect(row45.count == 1 && row45[0].components(separatedBy: "?").count - 1 == 32, "\(row45)")
    }

    // OPT-04: limit and offset are honoured by the fetch (CHG-13 for changes).
    @Test(arguments: StoreKind.withPostgres)
    func fetchLimitAndOffsetAreHonouredByTheFetch(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.many(10))
        let titles = try context.performAndWait { () throws -> [String] in
            let request = try Spec.request()
            request.fetchLimit = 3
            request.fetchOffset = 2
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            return controller.fetchedObjects?.map(\.title) ?? []
        }
        #expect(titles == ["t2", "t3", "t4"])
    }

    // OPT-05: without pending changes the fetch shows the store; changes are still followed in
    // memory (parity: classification does not consult the flag), so an unsaved insert is reported.
    @Test(arguments: StoreKind.withPostgres)
    func withoutPendingChangesTheFetchShowsTheStoreButUnsavedInsertsAreStillReported(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.decks)
        let (fetched, calls, after) = try context.performAndWait { () throws -> ([String], [String], [String]) in
            let unsaved = Spec.insert(CardSeed("u", deck: "A", rank: 0), into: context)
            defer { withExtendedLifetime(unsaved) {} }
            context.processPendingChanges()
            let request = try Spec.request(sectioned: true)
            request.includesPendingChanges = false
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "deck", cacheName: nil)
            let log = CallbackLog()
            controller.delegate = log
            try controller.performFetch()
            let fetched = Spec.layout(controller)
            let second = Spec.insert(CardSeed("v", deck: "B", rank: 0), into: context)
            defer { withExtendedLifetime(second) {} }
            context.processPendingChanges()
            return (fetched, log.log, Spec.layout(controller))
        }
        #expect(fetched == ["A: a1 a2", "B: b1", "C: c1 c2"])
        #expect(calls == ["will", "insert v -→[1,0]", "did"])
        #expect(after == ["A: a1 a2", "B: v b1", "C: c1 c2"])
    }

    // OPT-07: object-ID results are fetched and followed; the delegate receives IDs.
    @Test(arguments: StoreKind.withPostgres)
    func objectIDResultsAreFollowed(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.decks)
        let (fetchedIDs, calls, insertedID, path) = try context.performAndWait {
            () throws -> ([ManagedObjectID], [ClassicRecorder.Call], ManagedObjectID, IndexPath?) in
            let request = FetchRequest<ManagedObjectID>(entityName: "Card")
            request.resultType = .managedObjectIDResultType
            request.sortDescriptors = [FetchSortDescriptor(key: "rank"), FetchSortDescriptor(key: "title")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let fetchedIDs = controller.fetchedObjects.map { Array($0) } ?? []
            let card = Spec.insert(CardSeed("first", rank: 0), into: context)
            try context.obtainPermanentIDs(for: [card])
            context.processPendingChanges()
            return (fetchedIDs, recorder.calls, card.objectID, controller.indexPath(forObject: card.objectID))
        }
        let expected = ["a1", "b1", "c1", "a2", "c2"].compactMap { cards[$0]?.objectID }
        #expect(fetchedIDs == expected)
        #expect(calls == [.willChange, .object(.insert, insertedID, nil, IndexPath(row: 0, section: 0)), .didChange])
        #expect(path == IndexPath(row: 0, section: 0))
    }
}

/// A seat ticket whose block is transient: it is never saved and lives in memory only.
final class Ticket: ManagedObject {
    @Managed var title: String = ""
    @Managed var row: Int32 = 0
    @Managed(transient: true) var block: String?
}
