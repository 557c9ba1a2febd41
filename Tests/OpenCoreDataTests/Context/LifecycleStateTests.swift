import Foundation
import OpenCoreData
import Testing

/// The object's state as each lifecycle method sees it, against Core Data's: what `isInserted`,
/// `isUpdated`, `isDeleted`, `isFault`, `hasChanges`, `managedObjectContext` and the object ID
/// say inside `awakeFromInsert`, `awakeFromFetch`, `prepareForDeletion` and the fault methods, and
/// what values set there count as. (`willSave`/`didSave` are in SaveHookTests, the snapshot events
/// in ObjectLifecycleTests.)
@Suite struct LifecycleStateTests {
    final class Probe: ManagedObject {
        /// Each call, with the state it saw.
        nonisolated(unsafe) var events: [String] = []

        var name: String? {
            get { value(forKey: "name") as? String }
            set { setValue(newValue, forKey: "name") }
        }

        var stamp: String? {
            get { value(forKey: "stamp") as? String }
            set { setValue(newValue, forKey: "stamp") }
        }

        /// A transient cache, computed when the object wakes.
        var cache: String? {
            get { value(forKey: "cache") as? String }
            set { setValue(newValue, forKey: "cache") }
        }

        private func record(_ hook: String) {
            let flags = [("inserted", isInserted), ("updated", isUpdated), ("deleted", isDeleted), ("fault", isFault),
                         ("changes", hasChanges), ("context", managedObjectContext != nil), ("temporary", objectID.isTemporaryID)]
            events.append("\(hook): " + flags.filter(\.1).map(\.0).joined(separator: " "))
        }

        override func awakeFromInsert() {
            record("awakeFromInsert")
            stamp = "inserted"
        }

        override func awakeFromFetch() {
            record("awakeFromFetch")
            cache = "woken \(name ?? "nil")"
        }

        override func prepareForDeletion() { record("prepareForDeletion") }
        override func willTurnIntoFault() { record("willTurnIntoFault") }
        override func didTurnIntoFault() { record("didTurnIntoFault") }
        override func didSave() { record("didSave") }
    }

    private static func model() -> ManagedObjectModel {
        let probe = EntityDescription(name: "Probe")
        probe.managedObjectClass = Probe.self
        let cache = AttributeDescription(name: "cache", type: .string)
        cache.isTransient = true
        probe.properties = [AttributeDescription(name: "name", type: .string), AttributeDescription(name: "stamp", type: .string), cache]
        return ManagedObjectModel(entities: [probe])
    }

    /// Saves the object `make` inserts, in a context of its own, and returns its ID.
    private static func saved(in stack: TestStack, _ make: @escaping (ManagedObjectContext) -> Probe) throws -> ManagedObjectID {
        let context = stack.newContext()
        return try context.performAndWait {
            let probe = make(context)
            try context.save()
            return probe.objectID
        }
    }

    /// In `awakeFromInsert` the object is inserted, registered and temporary; what it sets there
    /// is part of the insertion (a changed value, not an update).
    @Test(arguments: StoreKind.withPostgres)
    func awakeFromInsertSeesANewObject(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: Self.model())
        let context = stack.newContext()
        try context.performAndWait {
            let probe = Probe(context: context)
            #expect(probe.events == ["awakeFromInsert: inserted changes context temporary"])
            #expect(probe.stamp == "inserted")
            #expect(probe.changedValues()["stamp"] as? String == "inserted")
            #expect(!probe.isUpdated)
            try context.save()
            #expect(probe.events.last == "didSave: inserted changes context")
        }
    }

    /// A child context's save brings its new object to the parent without a second
    /// `awakeFromInsert`: what the child's call set (a timestamp, say) is what the parent gets.
    @Test(arguments: StoreKind.withPostgres)
    func aChildsInsertionReachesItsParentWithoutASecondAwakeFromInsert(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: Self.model())
        let chain = ContextChain(stack, depth: 1)
        try chain.leaf.performAndWait {
            let probe = Probe(context: chain.leaf)
            probe.stamp = "set in the child"
            try chain.leaf.save()
        }
        try chain.root.performAndWait {
            let probe = try #require(chain.root.insertedObjects.first as? Probe)
            #expect(probe.events == [])
            #expect(probe.isInserted && probe.stamp == "set in the child")
        }
    }

    /// `awakeFromFetch` runs when a fault's values arrive, on an unchanged object; values it sets
    /// change nothing (Core Data turns change processing off around it), so the object and its
    /// context stay without changes, and nothing is written.
    @Test(arguments: StoreKind.withPostgres)
    func awakeFromFetchSetsValuesWithoutChangingTheObject(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: Self.model())
        let id = try Self.saved(in: stack) { context in
            let probe = Probe(context: context)
            probe.name = "first"
            return probe
        }
        let context = stack.newContext()
        try context.performAndWait {
            let probe = try #require(try context.existingObject(with: id) as? Probe)
            #expect(probe.events == ["awakeFromFetch: context"])
            #expect(probe.cache == "woken first")
            #expect(!probe.hasChanges && !context.hasChanges && context.updatedObjects.isEmpty)

            // Fetched as full objects: awoken by the fetch itself.
            let other = stack.newContext()
            try other.performAndWait {
                let request = FetchRequest<Probe>(entityName: "Probe")
                request.returnsObjectsAsFaults = false
                let fetched = try #require(try other.fetch(request).first)
                #expect(fetched.events == ["awakeFromFetch: context"])
                #expect(!other.hasChanges)
            }

            // A refreshed object wakes again when next read.
            context.refresh(probe, mergeChanges: false)
            #expect(probe.events == ["awakeFromFetch: context", "willTurnIntoFault: context", "didTurnIntoFault: fault context"])
            _ = probe.name
            #expect(probe.events.last == "awakeFromFetch: context")
            #expect(!context.hasChanges)
        }
    }

    /// `prepareForDeletion` sees the object deleted; once the deletion is saved, `didSave` still
    /// sees it deleted, then it turns into a fault and leaves its context, as in Core Data (where
    /// `managedObjectContext == nil` is how apps tell a deleted object).
    @Test(arguments: StoreKind.withPostgres)
    func aSavedDeletionTurnsTheObjectIntoAFaultOutsideItsContext(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: Self.model())
        let id = try Self.saved(in: stack) { context in Probe(context: context) }
        let context = stack.newContext()
        try context.performAndWait {
            let probe = try #require(try context.existingObject(with: id) as? Probe)
            probe.events = []
            context.delete(probe)
            #expect(probe.events == ["prepareForDeletion: deleted changes context"])
            try context.save()
            #expect(probe.events == ["prepareForDeletion: deleted changes context", "didSave: deleted changes context",
                                     "willTurnIntoFault: context", "didTurnIntoFault: fault"])
            #expect(probe.isFault && !probe.isDeleted && probe.managedObjectContext == nil)
        }
    }
}
