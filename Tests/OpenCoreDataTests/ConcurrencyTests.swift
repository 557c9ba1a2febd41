import Dispatch
import Foundation
import OpenCoreData
import Testing

/// Several private-queue contexts save into one SQLite store at the same time while another
/// context merges their saves automatically: nothing is lost, every merge lands, and conflicting
/// saves follow the merge policy. Run under ThreadSanitizer too (`--sanitize=thread`).
@Suite struct ConcurrencyTests {
    static let writers = 4
    static let savesPerWriter = 50
    static let seedsPerWriter = 5

    /// Which context merges the writers' saves.
    enum Merger: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case privateQueue
        case viewContext
        var testDescription: String { rawValue }
    }

    /// What an item should hold at the end.
    struct ItemState: Equatable, Sendable, CustomStringConvertible {
        var name: String
        var done: Bool
        var description: String { "\(name)/\(done)" }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Disjoint writers, one merging context

    /// Four contexts each make 50 saves (an insert, an update of one of their seeded items and of
    /// their previous insert) at the same time. The merging context's registered seeds end with
    /// the last saved values, it received one merge per save, and every row is in the store.
    @Test(.timeLimit(.hang), arguments: Merger.allCases)
    func concurrentSavesAllMergeIntoAnAutoMergingContext(merger: Merger) async throws {
        let stack = try TestStack(.sqlite)
        let seeder = stack.newContext()
        let seeds: [[ManagedObjectID]] = try await seeder.perform {
            let items = (0..<Self.writers).map { writer in
                (0..<Self.seedsPerWriter).map { index in
                    let item = Item(context: seeder)
                    item.name = "w\(writer)-seed\(index)"
                    return item
                }
            }
            try seeder.save()
            return items.map { $0.map(\.objectID) }
        }

        // The merging context holds every seed (retainsRegisteredObjects keeps them registered),
        // so that merges have objects to update.
        let observer = merger == .viewContext ? stack.container.viewContext : stack.newContext()
        try await observer.perform {
            observer.automaticallyMergesChangesFromParent = true
            observer.retainsRegisteredObjects = true
            for id in seeds.joined() { _ = try observer.existingObject(with: id) }
        }
        let merges = observer.changes(of: [.didMerge])

        let contexts = (0..<Self.writers).map { _ in stack.newContext() }
        let expected = try await withThrowingTaskGroup(of: [ManagedObjectID: ItemState].self) { group in
            for (writer, context) in contexts.enumerated() {
                group.addTask { try await Self.write(as: writer, in: context, seeds: seeds[writer]) }
            }
            var all: [ManagedObjectID: ItemState] = [:]
            for try await states in group { all.merge(states) { _, new in new } }
            return all
        }
        #expect(expected.count == Self.writers * (Self.seedsPerWriter + Self.savesPerWriter))

        // Each save enqueued its merge on the observer's queue before it returned: a block enqueued
        // now runs after all of them.
        await observer.perform(schedule: .enqueued) {}
        let mergeCount = await Self.count(merges, upTo: Self.writers * Self.savesPerWriter, timeout: .seconds(10))
        #expect(mergeCount == Self.writers * Self.savesPerWriter)

        let (registered, fetched, hasChanges) = try await observer.perform {
            var registered: [ManagedObjectID: ItemState] = [:]
            for object in observer.registeredObjects {
                guard let item = object as? Item, !item.isFault else { continue }
                registered[item.objectID] = ItemState(name: item.name, done: item.done)
            }
            let fetched = try observer.all(Item.self).map { ($0.objectID, ItemState(name: $0.name, done: $0.done)) }
            return (registered, Dictionary(fetched, uniquingKeysWith: { first, _ in first }), observer.hasChanges)
        }
        #expect(!hasChanges)
        let seedIDs = Set(seeds.joined())
        let staleSeeds = seedIDs.filter { registered[$0] != expected[$0] }
        #expect(staleSeeds.isEmpty, "merged seeds differ from the last saves: \(staleSeeds.map { "\(registered[$0].map(String.init(describing:)) ?? "not registered") ≠ \(expected[$0].map(String.init(describing:)) ?? "?")" })")
        #expect(fetched == expected)

        let reader = stack.newContext()
        let stored = try await reader.perform {
            Dictionary(try reader.all(Item.self).map { ($0.objectID, ItemState(name: $0.name, done: $0.done)) },
                       uniquingKeysWith: { first, _ in first })
        }
        #expect(stored == expected)
    }

    /// One writer's saves; returns what each item it touched holds after its last save.
    private static func write(as writer: Int, in context: ManagedObjectContext,
                              seeds: [ManagedObjectID]) async throws -> [ManagedObjectID: ItemState] {
        var states: [ManagedObjectID: ItemState] = [:]
        var previous: ManagedObjectID?
        for save in 0..<savesPerWriter {
            let earlier = previous
            let touched: [ManagedObjectID: ItemState] = try await context.perform {
                let item = Item(context: context)
                item.name = "w\(writer)-new\(save)"
                item.done = save.isMultiple(of: 2)
                guard let seed = try context.existingObject(with: seeds[save % seeds.count]) as? Item else {
                    throw Failure(description: "seed \(seeds[save % seeds.count]) is not an Item")
                }
                seed.name = "w\(writer)-seed\(save % seeds.count)-v\(save)"
                seed.done.toggle()
                var objects = [item, seed]
                if let earlier, let last = try context.existingObject(with: earlier) as? Item {
                    last.name += "+"
                    objects.append(last)
                }
                try context.save()
                return Dictionary(objects.map { ($0.objectID, ItemState(name: $0.name, done: $0.done)) },
                                  uniquingKeysWith: { _, new in new })
            }
            states.merge(touched) { _, new in new }
            previous = touched.first { $0.value.name == "w\(writer)-new\(save)" }?.key
        }
        return states
    }

    /// Counts the change sets a stream delivers, up to `limit`, giving up after `timeout`.
    private static func count(_ stream: AsyncStream<ContextChanges>, upTo limit: Int, timeout: Duration) async -> Int {
        let counted = Shared(0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in stream where counted.update({ $0 += 1; return $0 }) >= limit { break }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return counted.value
    }

    // MARK: Writers on one object, by property

    /// Four contexts with `.mergeByPropertyObjectTrump` each set a different property of the same
    /// object 50 times, concurrently, every save based on a stale version. Every save succeeds,
    /// no property update is lost, and the merging context ends with the stored values.
    @Test(.timeLimit(.hang))
    func objectTrumpKeepsEveryContextsPropertyWhenAllWriteOneObject() async throws {
        let stack = try TestStack(.sqlite)
        let seeder = stack.newContext()
        let id = try await seeder.perform {
            let sample = Sample(context: seeder)
            try seeder.save()
            return sample.objectID
        }
        let observer = stack.newContext()
        try await observer.perform {
            observer.automaticallyMergesChangesFromParent = true
            observer.retainsRegisteredObjects = true
            _ = try observer.existingObject(with: id)
        }
        let contexts = (0..<4).map { _ in stack.newContext() }
        for context in contexts {
            // Each writer keeps its copy, so that every save after another writer's is in conflict.
            try await context.perform {
                context.mergePolicy = .mergeByPropertyObjectTrump
                context.retainsRegisteredObjects = true
                _ = try context.existingObject(with: id)
            }
        }
        // Each writer reports the saves that failed and the value of its last successful save;
        // failed saves are recorded, not thrown, so that the checks below still run.
        let outcomes = await withTaskGroup(of: (Int, [String], Int).self) { group in
            for (writer, context) in contexts.enumerated() {
                group.addTask {
                    var failures: [String] = []
                    var lastSaved = 0
                    for save in 1...Self.savesPerWriter {
                        let error: String? = await context.perform {
                            guard let sample = context.object(with: id) as? Sample else { return "the sample is gone" }
                            switch writer {
                            case 0: sample.int16 = Int16(save)
                            case 1: sample.int32 = Int32(save)
                            case 2: sample.int64 = Int64(save)
                            default: sample.string = "\(save)"
                            }
                            do {
                                try context.save()
                                return nil
                            } catch {
                                return "save \(save): \(error)"
                            }
                        }
                        if let error { failures.append(error) } else { lastSaved = save }
                    }
                    return (writer, failures, lastSaved)
                }
            }
            var outcomes: [(writer: Int, failures: [String], lastSaved: Int)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.writer < $1.writer }
        }
        let failures = outcomes.flatMap { outcome in outcome.failures.map { "writer \(outcome.writer), \($0)" } }
        #expect(failures.isEmpty, "\(failures.count) of \(4 * Self.savesPerWriter) saves failed despite .mergeByPropertyObjectTrump:\n\(failures.prefix(3).joined(separator: "\n"))")

        let last = outcomes.map(\.lastSaved)
        let expected = "\(last[0]) \(last[1]) \(last[2]) \(last[3])"
        let reader = stack.newContext()
        let stored = try await reader.perform { Self.values(try reader.existingObject(with: id) as? Sample) }
        #expect(stored == expected, "a property update was lost")

        await observer.perform(schedule: .enqueued) {}
        let merged = await observer.perform { Self.values(observer.object(with: id) as? Sample) }
        #expect(merged == stored, "the merging context does not show the stored values")
    }

    /// The four properties the writers set, in one string.
    private static func values(_ sample: Sample?) -> String {
        guard let sample else { return "missing" }
        return "\(sample.int16) \(sample.int32) \(sample.int64) \(sample.string ?? "nil")"
    }

    // MARK: Two writers, one property

    /// Two contexts change the same property of the same object at the same time with
    /// `.mergeByPropertyObjectTrump`: both saves succeed and the store holds one of the values.
    @Test(.timeLimit(.hang))
    func objectTrumpLetsBothConcurrentSavesSucceed() throws {
        let stack = try TestStack(.sqlite)
        for round in 0..<20 {
            let (contexts, id) = try Self.twoContextsHoldingOneItem(stack, policy: .mergeByPropertyObjectTrump)
            let names = ["A\(round)", "B\(round)"]
            let errors = Self.saveConcurrently(contexts, id: id) { index, item in item.name = names[index] }
            #expect(errors.isEmpty, "round \(round): \(errors)")
            let reader = stack.newContext()
            let stored = try reader.performAndWait { (try reader.existingObject(with: id) as? Item)?.name }
            #expect(stored == "A\(round)" || stored == "B\(round)", "round \(round): the store holds \(stored ?? "nothing")")
        }
    }

    /// The same race with the default `.error` policy: exactly the save that commits second throws
    /// `mergeConflict`, naming the object; nothing of it is written and the context keeps its
    /// change, which a retry with a merging policy then saves.
    @Test(.timeLimit(.hang))
    func errorPolicyFailsExactlyTheLosingSave() throws {
        let stack = try TestStack(.sqlite)
        for round in 0..<20 {
            let names = ["A\(round)", "B\(round)"]
            let (contexts, id) = try Self.twoContextsHoldingOneItem(stack, policy: .error)
            let errors = Self.saveConcurrently(contexts, id: id) { index, item in item.name = names[index] }
            try #require(errors.count == 1, "round \(round): \(errors.count) saves failed: \(errors)")
            let (loser, error) = try #require(errors.first)
            let conflict = try #require(error as? ObjectGraphError, "round \(round): \(error)")
            #expect(conflict.code == ObjectGraphError.mergeConflict)
            #expect(conflict.conflicts.map(\.objectID) == [id])
            #expect(conflict.conflicts.first?.changedKeys == ["name"])
            #expect(conflict.conflicts.first?.objectVersion == 1 && conflict.conflicts.first?.storeVersion == 2)

            let reader = stack.newContext()
            let stored = try reader.performAndWait { (try reader.existingObject(with: id) as? Item)?.name }
            #expect(stored == names[1 - loser], "round \(round): the store holds \(stored ?? "nothing")")

            let context = contexts[loser]
            let (kept, hadChanges) = try context.performAndWait {
                let item = context.object(with: id) as? Item
                let state = (item?.name, context.hasChanges)
                context.mergePolicy = .mergeByPropertyObjectTrump
                try context.save()
                return state
            }
            #expect(kept == names[loser] && hadChanges, "round \(round): the failed save lost the context's change")
            let retried = try reader.performAndWait {
                reader.reset()
                return (try reader.existingObject(with: id) as? Item)?.name
            }
            #expect(retried == names[loser])
        }
    }

    // MARK: Merge order

    /// Two contexts save different properties of one object at the same time (object trump, so
    /// both succeed) while a third context merges automatically. Once the merges are in, the
    /// merging context must hold what the store holds: the merge of the earlier save must not
    /// win because it reached the merging context's queue after the later one.
    @Test(.timeLimit(.hang))
    func autoMergedObjectMatchesTheStoreAfterRacingSaves() throws {
        let stack = try TestStack(.sqlite)
        let observer = stack.newContext()
        observer.performAndWait {
            observer.automaticallyMergesChangesFromParent = true
            observer.retainsRegisteredObjects = true
        }
        var mismatches: [String] = []
        let rounds = 40
        for round in 0..<rounds {
            let (contexts, id) = try Self.twoContextsHoldingOneItem(stack, policy: .mergeByPropertyObjectTrump)
            _ = try observer.performAndWait { try observer.existingObject(with: id) }
            let errors = Self.saveConcurrently(contexts, id: id) { index, item in
                if index == 0 { item.name = "A\(round)" } else { item.done = true }
            }
            #expect(errors.isEmpty, "round \(round): \(errors)")
            let reader = stack.newContext()
            let stored = try reader.performAndWait {
                (try reader.existingObject(with: id) as? Item).map { ItemState(name: $0.name, done: $0.done) }
            }
            #expect(stored == ItemState(name: "A\(round)", done: true), "round \(round): a property update was lost")
            // performAndWait queues behind the merges the saves enqueued.
            let merged = observer.performAndWait {
                (observer.object(with: id) as? Item).map { ItemState(name: $0.name, done: $0.done) }
            }
            if merged != stored {
                mismatches.append("round \(round): merged \(merged.map(String.init(describing:)) ?? "nil"), stored \(stored.map(String.init(describing:)) ?? "nil")")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(rounds) rounds left the merging context with an older save's values:\n\(mismatches.prefix(5).joined(separator: "\n"))")
    }

    /// The same reordering, made certain: a did-save observer of the first context saves the
    /// second context, so the newer save's merge is enqueued on the merging context before the
    /// older one's. The merging context must still end with the newer values.
    @Test(.timeLimit(.hang))
    func mergeOfAnOlderSaveArrivingLastDoesNotWin() throws {
        let stack = try TestStack(.sqlite)
        let (contexts, id) = try Self.twoContextsHoldingOneItem(stack, policy: .mergeByPropertyObjectTrump)
        let (first, second) = (contexts[0], contexts[1])
        let observer = stack.newContext()
        try observer.performAndWait {
            observer.automaticallyMergesChangesFromParent = true
            observer.retainsRegisteredObjects = true
            _ = try observer.existingObject(with: id)
        }
        let nested = Shared<(any Error)?>(nil)
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: first, queue: nil) { _ in
            second.performAndWait {
                (second.object(with: id) as? Item)?.done = true
                do { try second.save() } catch { nested.update { $0 = error } }
            }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try first.performAndWait {
            (first.object(with: id) as? Item)?.name = "first"
            try first.save()
        }
        #expect(nested.value == nil)

        let reader = stack.newContext()
        let stored = try reader.performAndWait {
            (try reader.existingObject(with: id) as? Item).map { ItemState(name: $0.name, done: $0.done) }
        }
        #expect(stored == ItemState(name: "first", done: true))
        let merged = observer.performAndWait {
            (observer.object(with: id) as? Item).map { ItemState(name: $0.name, done: $0.done) }
        }
        #expect(merged == stored, "the merge of the older save, enqueued last, overwrote the newer values")
    }

    /// A new item, and two contexts that have each read it at version 1 and keep it.
    private static func twoContextsHoldingOneItem(_ stack: TestStack, policy: MergePolicy) throws -> ([ManagedObjectContext], ManagedObjectID) {
        let seeder = stack.newContext()
        let id = try seeder.performAndWait {
            let item = Item(context: seeder)
            item.name = "original"
            try seeder.save()
            return item.objectID
        }
        let contexts = [stack.newContext(), stack.newContext()]
        for context in contexts {
            try context.performAndWait {
                context.mergePolicy = policy
                context.retainsRegisteredObjects = true
                _ = try context.existingObject(with: id)
            }
        }
        return (contexts, id)
    }

    /// Changes the item in each context and saves them at the same time, released together by a
    /// barrier; returns the errors by context index.
    private static func saveConcurrently(_ contexts: [ManagedObjectContext], id: ManagedObjectID,
                                         change: @Sendable (Int, Item) -> Void) -> [(Int, any Error)] {
        let errors = Shared<[(Int, any Error)]>([])
        let arrived = Shared(0)
        DispatchQueue.concurrentPerform(iterations: contexts.count) { index in
            let context = contexts[index]
            context.performAndWait {
                if let item = context.object(with: id) as? Item { change(index, item) }
                arrived.update { $0 += 1 }
                // Spin briefly so that the saves start together; go on alone if another is late.
                let deadline = DispatchTime.now() + .milliseconds(50)
                while arrived.value < contexts.count, DispatchTime.now() < deadline {}
                do {
                    try context.save()
                } catch {
                    errors.update { $0.append((index, error)) }
                }
            }
        }
        return errors.value
    }
}

/// A value shared between threads, behind an NSLock rather than Synchronization's Mutex: on Linux
/// ThreadSanitizer does not see Mutex's futex-based locking and reports every access inside it as
/// a race, which would hide real races in these tests.
private final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value { lock.withLock { stored } }

    @discardableResult
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&stored) }
    }
}
