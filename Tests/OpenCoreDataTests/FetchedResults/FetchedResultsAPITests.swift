import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// FRC-SPEC section 1: the controller's API surface and preconditions.
@Suite struct FetchedResultsAPITests {
    private static let fruit = [CardSeed("a", deck: "Apple", rank: 1), CardSeed("b", deck: "Apple", rank: 2),
                                CardSeed("c", deck: "Banana", rank: 1), CardSeed("d", deck: "Cherry", rank: 1)]

    // API-01
    @Test func theInitializerKeepsTheSectionKeyPathAndCacheName() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        let read = context.performAndWait { () -> [String] in
            var read: [String] = []
            for keyPath in [nil, "deck"] as [String?] {
                for cacheName in [nil, "cards"] as [String?] {
                    let controller = FetchedResultsController(fetchRequest: Card.fetchRequest(), managedObjectContext: context,
                                                              sectionNameKeyPath: keyPath, cacheName: cacheName)
                    read.append("\(controller.sectionNameKeyPath ?? "nil") \(controller.cacheName ?? "nil") \(controller.managedObjectContext === context)")
                }
            }
            return read
        }
        #expect(read == ["nil nil true", "nil cards true", "deck nil true", "deck cards true"])
    }

    // API-02. Our port differs on purpose (DESIGN §3.1): nil sort descriptors make performFetch()
    // throw missingSortDescriptors instead of trapping in init. An empty array is accepted.
    @Test(arguments: StoreKind.withPostgres)
    func missingSortDescriptorsMakePerformFetchThrowAndAnEmptyArrayIsAccepted(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.fruit)
        let (code, message, emptyCount) = context.performAndWait { () -> (Int?, String, Int?) in
            let request = Card.fetchRequest()
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            var code: Int?
            var message = ""
            do {
                try controller.performFetch()
            } catch let error as FetchedResultsError {
                code = error.code.rawValue
                message = error.message
            } catch {
                message = "\(error)"
            }
            request.sortDescriptors = []
            let emptyCount = (try? controller.performFetch()).flatMap { controller.fetchedObjects?.count }
            return (code, message, emptyCount)
        }
        #expect(code == FetchedResultsError.missingSortDescriptors.rawValue)
        #expect(message.contains("sort descriptors"))
        #expect(emptyCount == 4)
    }

    // API-03
    @Test(arguments: StoreKind.withPostgres)
    func theRequestIsKeptByReferenceAndAChangedPredicateAppliesAtTheNextFetch(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.fruit)
        let (sameRequest, before, after) = try context.performAndWait { () throws -> (Bool, [String], [String]) in
            let request = try Spec.request()
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            let before = Spec.layout(controller)
            request.predicate = try FetchPredicate(format: "deck == %@", "Apple")
            try controller.performFetch()
            return (controller.fetchRequest === request, before, Spec.layout(controller))
        }
        #expect(sameRequest)
        #expect(before == [": a c d b"])
        #expect(after == [": a b"])
    }

    // API-05
    @Test func theDelegateIsHeldWeakly() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        let released = try context.performAndWait { () throws -> Bool in
            let controller = try Spec.controller(context)
            do {
                let recorder = ClassicRecorder()
                controller.delegate = recorder
                #expect(controller.delegate === recorder)
            }
            return controller.delegate == nil
        }
        #expect(released)
    }

    // API-06: checked by the compiler. Deliberate difference (OPT-03): `fetchedObjects` is a lazy
    // random-access collection, `FetchedObjects<ResultType>?`, not an array.
    @Test func theAccessorsHaveCoreDataSignatures() throws {
        let performFetch: (FetchedResultsController<Card>) -> () throws -> Void = FetchedResultsController<Card>.performFetch
        let objectAt: (FetchedResultsController<Card>) -> (IndexPath) -> Card = FetchedResultsController<Card>.object(at:)
        let indexPathFor: (FetchedResultsController<Card>) -> (Card) -> IndexPath? = FetchedResultsController<Card>.indexPath(forObject:)
        let sectionFor: (FetchedResultsController<Card>) -> (String, Int) -> Int = FetchedResultsController<Card>.section(forSectionIndexTitle:at:)
        let titleFor: (FetchedResultsController<Card>) -> (String) -> String? = FetchedResultsController<Card>.sectionIndexTitle(forSectionName:)
        let deleteCache: (String?) -> Void = FetchedResultsController<Card>.deleteCache(withName:)
        let fetched: KeyPath<FetchedResultsController<Card>, FetchedObjects<Card>?> = \.fetchedObjects
        let sections: KeyPath<FetchedResultsController<Card>, [any FetchedResultsSectionInfo]?> = \.sections
        let titles: KeyPath<FetchedResultsController<Card>, [String]> = \.sectionIndexTitles
        let request: KeyPath<FetchedResultsController<Card>, FetchRequest<Card>> = \.fetchRequest
        let keyPath: KeyPath<FetchedResultsController<Card>, String?> = \.sectionNameKeyPath
        let cacheName: KeyPath<FetchedResultsController<Card>, String?> = \.cacheName
        let delegate: ReferenceWritableKeyPath<FetchedResultsController<Card>, (any FetchedResultsControllerDelegate)?> = \.delegate
        withExtendedLifetime((performFetch, objectAt, indexPathFor, sectionFor, titleFor, deleteCache)) {}
        #expect([fetched, sections, titles, request, keyPath, cacheName, delegate].count == 7)
    }

    // API-07. Our choice for API-11: section infos are values, fixed when `sections` is read.
    @Test(arguments: StoreKind.withPostgres)
    func aSectionInfoHasANameAnIndexTitleACountAndItsObjects(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.fruit)
        let sections = try context.performAndWait { () throws -> [String] in
            let controller = try Spec.controller(context, sectioned: true)
            try controller.performFetch()
            return (controller.sections ?? []).map { section in
                let titles = (section.objects ?? []).compactMap { ($0 as? Card)?.title }
                return "\(section.name) \(section.indexTitle ?? "nil") \(section.numberOfObjects) \(titles)"
            }
        }
        #expect(sections == [#"Apple A 2 ["a", "b"]"#, #"Banana B 1 ["c"]"#, #"Cherry C 1 ["d"]"#])
    }

    // API-08
    @Test func changeTypesKeepCoreDataRawValues() {
        #expect(FetchedResultsChangeType.insert.rawValue == 1)
        #expect(FetchedResultsChangeType.delete.rawValue == 2)
        #expect(FetchedResultsChangeType.move.rawValue == 3)
        #expect(FetchedResultsChangeType.update.rawValue == 4)
        #expect(FetchedResultsChangeType(rawValue: 0) == nil)
    }

    // API-09, API-11
    @Test(arguments: StoreKind.withPostgres)
    func fetchedObjectsAndSectionsAreNilBeforeAFetchAndAfterAFailedOne(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.fruit)
        let states = try context.performAndWait { () throws -> [String] in
            let request = try Spec.request()
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            func state() -> String {
                "\(controller.fetchedObjects.map { "\($0.count)" } ?? "nil") \(controller.sections.map { "\($0.count)" } ?? "nil")"
            }
            var states = [state()]
            try controller.performFetch()
            states.append(state())
            request.sortDescriptors = nil
            #expect(throws: FetchedResultsError.self) { try controller.performFetch() }
            states.append(state())
            return states
        }
        #expect(states == ["nil nil", "4 1", "nil nil"])
    }

    // API-10, API-11: what a caller read does not change under it; the controller's next read does.
    @Test(arguments: StoreKind.withPostgres)
    func fetchedObjectsAndSectionsReadEarlierDoNotChangeWhenTheResultsDo(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.fruit)
        let (kept, keptSection, fresh, freshSection) = try context.performAndWait { () throws -> ([String], Int, [String], Int) in
            let controller = try Spec.controller(context)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let objects = try #require(controller.fetchedObjects)
            let section = try #require(controller.sections?.first)
            let card = Spec.insert(CardSeed("e", rank: 0), into: context)
            defer { withExtendedLifetime(card) {} }
            context.processPendingChanges()
            return (objects.map(\.title), section.numberOfObjects,
                    controller.fetchedObjects?.map(\.title) ?? [], controller.sections?.first?.numberOfObjects ?? -1)
        }
        #expect(kept == ["a", "c", "d", "b"])
        #expect(keptSection == 4)
        #expect(fresh == ["e", "a", "c", "d", "b"])
        #expect(freshSection == 5)
    }

    // API-12: a valid index path gives fetchedObjects[section offset + row].
    @Test(arguments: StoreKind.withPostgres)
    func objectAtAnIndexPathIsTheFetchedObjectAtTheSectionOffsetPlusTheRow(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.fruit)
        let pairs = try context.performAndWait { () throws -> [String] in
            let controller = try Spec.controller(context, sectioned: true)
            try controller.performFetch()
            let objects = try #require(controller.fetchedObjects)
            var offset = 0
            var pairs: [String] = []
            for (section, info) in (controller.sections ?? []).enumerated() {
                for row in 0..<info.numberOfObjects {
                    let object = controller.object(at: IndexPath(row: row, section: section))
                    pairs.append("\(object.title)=\(objects[offset + row].title)")
                }
                offset += info.numberOfObjects
            }
            return pairs
        }
        #expect(pairs == ["a=a", "b=b", "c=c", "d=d"])
    }

    // API-12: a precondition failure with Core Data's message.
    @Test func objectAtAMissingSectionStopsWithCoreDataMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            try context.performAndWait {
                let controller = try Spec.controller(context)
                try controller.performFetch()
                _ = controller.object(at: IndexPath(row: 0, section: 5))
            }
        }
        #expect(Spec.standardError(result).contains("no section at index 5"))
    }

    // API-12
    @Test func objectAtAMissingRowStopsWithCoreDataMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            try Spec.seed(context, [CardSeed("a", rank: 1)])
            try context.performAndWait {
                let controller = try Spec.controller(context)
                try controller.performFetch()
                _ = controller.object(at: IndexPath(row: 3, section: 0))
            }
        }
        #expect(Spec.standardError(result).contains("no object at index 3 in section at index 0"))
    }

    // API-12
    @Test func objectAtBeforeAFetchStopsWithCoreDataMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            try context.performAndWait {
                let controller = try Spec.controller(context)
                _ = controller.object(at: IndexPath(row: 0, section: 0))
            }
        }
        #expect(Spec.standardError(result).contains("cannot access fetched objects before -performFetch:"))
    }

    // API-13
    @Test(arguments: StoreKind.withPostgres)
    func indexPathOfAnObjectNotInTheResultsIsNil(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.fruit + [CardSeed("hidden", deck: "Apple", rank: 9, visible: false)])
        let (found, hidden, inserted) = try context.performAndWait { () throws -> (IndexPath?, IndexPath?, IndexPath?) in
            let controller = try Spec.controller(context, sectioned: true, predicate: "visible == YES")
            try controller.performFetch()
            let other = Spec.insert(CardSeed("new", deck: "Apple", rank: 0), into: context)
            defer { withExtendedLifetime(other) {} }
            return (controller.indexPath(forObject: try #require(cards["c"])), controller.indexPath(forObject: try #require(cards["hidden"])),
                    controller.indexPath(forObject: other))
        }
        #expect(found == IndexPath(row: 0, section: 1))
        #expect(hidden == nil)
        #expect(inserted == nil)
    }

    // API-13 [INF], recorded: after a section key change, before pending changes are processed,
    // our port still answers the old index path (Apple may answer nil).
    @Test(arguments: StoreKind.withPostgres)
    func indexPathAfterASectionKeyChangeIsTheOldOneUntilChangesAreProcessed(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.fruit)
        let (before, after) = try context.performAndWait { () throws -> (IndexPath?, IndexPath?) in
            let controller = try Spec.controller(context, sectioned: true)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let card = try #require(cards["b"])
            card.deck = "Zucchini"
            let before = controller.indexPath(forObject: card)
            context.processPendingChanges()
            return (before, controller.indexPath(forObject: card))
        }
        #expect(before == IndexPath(row: 1, section: 0))
        #expect(after == IndexPath(row: 0, section: 3))
    }

    // API-14
    @Test(arguments: StoreKind.withPostgres)
    func indexPathsChangeOnlyWhenPendingChangesAreProcessed(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.fruit)
        let paths = try context.performAndWait { () throws -> [IndexPath?] in
            let controller = try Spec.controller(context)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let card = try #require(cards["b"])
            let before = controller.indexPath(forObject: card)
            card.rank = 0
            let unprocessed = controller.indexPath(forObject: card)
            context.processPendingChanges()
            return [before, unprocessed, controller.indexPath(forObject: card)]
        }
        #expect(paths == [IndexPath(row: 3, section: 0), IndexPath(row: 3, section: 0), IndexPath(row: 0, section: 0)])
    }

    // API-15. Deliberate difference: the default title is the first grapheme cluster, uppercased
    // (Apple formats the first UTF-16 unit, which garbles non-ASCII letters).
    @Test func theDefaultIndexTitleIsTheFirstGraphemeUppercased() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        let titles = try context.performAndWait { () throws -> [String?] in
            let controller = try Spec.controller(context, sectioned: true)
            return ["apple", "Banana", "", "éclair", "e\u{301}toile", "🇫🇷 France", "1st"].map {
                controller.sectionIndexTitle(forSectionName: $0)
            }
        }
        #expect(titles == ["A", "B", nil, "É", "E\u{301}", "🇫🇷", "1"])
    }

    // API-15, SEC-04: the delegate's title wins; a section's title is fixed when it is created,
    // and asked again for a section created later (open question 4).
    @Test(arguments: StoreKind.withPostgres)
    func theDelegateIndexTitleWinsAndIsFixedWhenTheSectionIsCreated(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.fruit)
        let (fetched, afterChange, recreated) = try context.performAndWait { () throws -> ([String?], [String?], [String?]) in
            let controller = try Spec.controller(context, sectioned: true)
            let recorder = ClassicRecorder()
            recorder.titles = ["Apple": "🍏", "Banana": "🍌"]
            controller.delegate = recorder
            try controller.performFetch()
            let fetched = controller.sections?.map(\.indexTitle) ?? []
            recorder.titles = ["Apple": "APL", "Banana": "BAN", "Cherry": "CHE", "Date": "DAT"]
            let apple = Spec.insert(CardSeed("a2", deck: "Apple", rank: 3), into: context)
            let date = Spec.insert(CardSeed("e", deck: "Date", rank: 1), into: context)
            context.processPendingChanges()
            let afterChange = controller.sections?.map(\.indexTitle) ?? []
            // Empty Banana, then fill it again: a new section, whose title is asked again.
            let banana = try #require(cards["c"])
            banana.deck = "Cherry"
            context.processPendingChanges()
            banana.deck = "Banana"
            context.processPendingChanges()
            withExtendedLifetime((apple, date)) {}
            return (fetched, afterChange, controller.sections?.map(\.indexTitle) ?? [])
        }
        #expect(fetched == ["🍏", "🍌", "C"])
        #expect(afterChange == ["🍏", "🍌", "C", "DAT"])
        #expect(recreated == ["🍏", "BAN", "C", "DAT"])
    }

    // API-16: nil titles skipped, consecutive duplicates collapsed, others kept; empty unsectioned.
    @Test(arguments: StoreKind.withPostgres)
    func sectionIndexTitlesCollapseConsecutiveDuplicatesAndSkipNil(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, [CardSeed("a", deck: "Apple", rank: 1), CardSeed("b", deck: "avocado", rank: 1),
                                CardSeed("c", deck: "Banana", rank: 1), CardSeed("n", deck: nil, rank: 1)])
        let (insensitive, binary, unsectioned) = try context.performAndWait { () throws -> ([String], [String], [String]) in
            let request = Card.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "deck", comparison: .caseInsensitive)]
            let first = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "deck", cacheName: nil)
            try first.performFetch()
            let second = try Spec.controller(context, sectioned: true)
            try second.performFetch()
            let third = try Spec.controller(context)
            try third.performFetch()
            return (first.sectionIndexTitles, second.sectionIndexTitles, third.sectionIndexTitles)
        }
        // "", Apple, avocado, Banana: nil title skipped, A A collapsed.
        #expect(insensitive == ["A", "B"])
        // By bytes: "", Apple, Banana, avocado: the second A is not adjacent to the first.
        #expect(binary == ["A", "B", "A"])
        #expect(unsectioned == [])
    }

    // API-17
    @Test(arguments: StoreKind.withPostgres)
    func sectionForAnIndexTitleIsTheSectionThatContributedIt(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, [CardSeed("a", deck: "Apple", rank: 1), CardSeed("b", deck: "avocado", rank: 1),
                                CardSeed("c", deck: "Banana", rank: 1), CardSeed("n", deck: nil, rank: 1)])
        let found = try context.performAndWait { () throws -> [Int] in
            let request = Card.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "deck", comparison: .caseInsensitive)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "deck", cacheName: nil)
            try controller.performFetch()
            return [controller.section(forSectionIndexTitle: "A", at: 0), controller.section(forSectionIndexTitle: "B", at: 1)]
        }
        // Sections: "" (no title), Apple, avocado, Banana.
        #expect(found == [1, 3])
    }

    // API-17
    @Test func sectionForAMismatchedIndexTitleStopsWithCoreDataMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            try Spec.seed(context, [CardSeed("a", deck: "Apple", rank: 1)])
            try context.performAndWait {
                let controller = try Spec.controller(context, sectioned: true)
                try controller.performFetch()
                _ = controller.section(forSectionIndexTitle: "Z", at: 0)
            }
        }
        #expect(Spec.standardError(result).contains("Index title at 0 is not equal to 'Z'"))
    }

    // API-17
    @Test func sectionForAnIndexTitleOutOfRangeStopsWithCoreDataMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            try Spec.seed(context, [CardSeed("a", deck: "Apple", rank: 1)])
            try context.performAndWait {
                let controller = try Spec.controller(context, sectioned: true)
                try controller.performFetch()
                _ = controller.section(forSectionIndexTitle: "A", at: 5)
            }
        }
        #expect(Spec.standardError(result).contains("invalid Section Index offset5"))
    }

    // API-19, OPT-08. Deliberate difference: dictionary results with a delegate make
    // performFetch() throw unsupportedResultType (Apple raises when the delegate is set).
    @Test(arguments: StoreKind.withPostgres)
    func dictionaryResultsFetchWithoutADelegateAndThrowWithOne(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.fruit)
        let (untracked, sections, trackedCode) = try context.performAndWait { () throws -> ([String], [String], Int?) in
            let request = FetchRequest<NSDictionary>(entityName: "Card")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["title", "deck"]
            request.sortDescriptors = [FetchSortDescriptor(key: "deck"), FetchSortDescriptor(key: "title")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "deck", cacheName: nil)
            try controller.performFetch()
            let untracked = controller.fetchedObjects?.compactMap { $0["title"] as? String } ?? []
            let sections = controller.sections?.map { "\($0.name) \($0.numberOfObjects)" } ?? []

            let tracked = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                   sectionNameKeyPath: "deck", cacheName: nil)
            let recorder = ClassicRecorder()
            tracked.delegate = recorder
            var code: Int?
            do { try tracked.performFetch() } catch let error as FetchedResultsError { code = error.code.rawValue }
            return (untracked, sections, code)
        }
        #expect(untracked == ["a", "b", "c", "d"])
        #expect(sections == ["Apple 2", "Banana 1", "Cherry 1"])
        #expect(trackedCode == FetchedResultsError.unsupportedResultType.rawValue)
    }

    // API-19: count results cannot be shown at all.
    @Test func countResultsAreRefused() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        let code = context.performAndWait { () -> Int? in
            let request = FetchRequest<NSNumber>(entityName: "Card")
            request.resultType = .countResultType
            request.sortDescriptors = []
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            do { try controller.performFetch() } catch let error as FetchedResultsError { return error.code.rawValue } catch {}
            return nil
        }
        #expect(code == FetchedResultsError.unsupportedResultType.rawValue)
    }
}
