import Foundation
import OpenCoreData
import Testing

/// Query generations: a pinned context reads the store as it was when it was pinned, through
/// fetches, counts and faults, whatever other contexts commit, until it saves, merges, is reset or
/// unpinned; its token pins other contexts to the same state.
@Suite struct QueryGenerationTests {
    /// The items' names as `context` reads them, by name.
    private static func names(in context: ManagedObjectContext) throws -> [String] {
        let request = FetchRequest<Item>(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return try context.fetch(request).map(\.name)
    }

    private static func count(in context: ManagedObjectContext) throws -> Int {
        try context.count(for: FetchRequest<Item>(entityName: "Item"))
    }

    /// Inserts items named `names` and saves, in a context of its own.
    private static func insert(_ names: [String], in stack: TestStack) throws {
        let writer = stack.newContext()
        try writer.performAndWait {
            for name in names { Item(context: writer).name = name }
            try writer.save()
        }
    }

    /// Runs `change` on every item of a context of its own and saves.
    private static func changeAll(in stack: TestStack, _ change: @escaping (Item, ManagedObjectContext) -> Void) throws {
        let writer = stack.newContext()
        try writer.performAndWait {
            for item in try writer.fetch(FetchRequest<Item>(entityName: "Item")) { change(item, writer) }
            try writer.save()
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func aPinnedContextReadsTheStateItWasPinnedTo(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Self.insert(["a", "b"], in: stack)
        let reader = stack.newContext()
        try reader.performAndWait {
            #expect(reader.queryGenerationToken == nil)
            try reader.setQueryGenerationFrom(.current)
            #expect(try Self.names(in: reader) == ["a", "b"])
        }
        // Others commit: a new item, a changed one, a deleted one.
        try Self.insert(["c"], in: stack)
        try Self.changeAll(in: stack) { item, writer in
            if item.name == "a" { item.name = "a2" }
            if item.name == "b" { writer.delete(item) }
        }
        try reader.performAndWait {
            #expect(try Self.names(in: reader) == ["a", "b"])
            #expect(try Self.count(in: reader) == 2)
            // Objects it never loaded fault in from the pinned state too.
            reader.refreshAllObjects()
            let request = FetchRequest<Item>(entityName: "Item")
            request.returnsObjectsAsFaults = true
            let items = try reader.fetch(request)
            for item in items { reader.refresh(item, mergeChanges: false) }
            #expect(Set(items.map(\.name)) == ["a", "b"])

            try reader.setQueryGenerationFrom(nil)
            #expect(reader.queryGenerationToken == nil)
            #expect(try Self.count(in: reader) == 2)
            // Objects keep the values they hold until refreshed, as in Core Data.
            reader.refreshAllObjects()
            #expect(try Self.names(in: reader).sorted() == ["a2", "c"])
        }
    }

    /// A context's token pins another context to the same state, even after the store moved on.
    @Test(arguments: StoreKind.withPostgres)
    func aTokenPinsAnotherContextToTheSameState(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Self.insert(["a"], in: stack)
        let first = stack.newContext()
        let token = try first.performAndWait {
            try first.setQueryGenerationFrom(.current)
            let token = try #require(first.queryGenerationToken)
            #expect(first.queryGenerationToken == token)
            #expect(token != .current)
            return token
        }
        try Self.insert(["b"], in: stack)
        let second = stack.newContext()
        try second.performAndWait {
            #expect(try Self.names(in: second) == ["a", "b"])
            try second.setQueryGenerationFrom(token)
            #expect(second.queryGenerationToken == token)
            #expect(try Self.names(in: second) == ["a"])
        }
        #expect(try first.performAndWait { try Self.names(in: first) } == ["a"])
    }

    /// Saving, merging another context's save and resetting move a pinned context to the latest
    /// state (a new generation, pinned at its next read).
    @Test(arguments: StoreKind.withPostgres)
    func savesMergesAndResetsMoveAPinnedContextOn(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Self.insert(["a"], in: stack)
        let reader = stack.newContext()
        let first = try reader.performAndWait {
            try reader.setQueryGenerationFrom(.current)
            #expect(try Self.count(in: reader) == 1)
            return try #require(reader.queryGenerationToken)
        }

        // Its own save.
        try Self.insert(["b"], in: stack)
        try reader.performAndWait {
            #expect(try Self.count(in: reader) == 1)
            Item(context: reader).name = "c"
            try reader.save()
            #expect(try Self.count(in: reader) == 3)
            #expect(reader.queryGenerationToken != first)
        }

        // A reset.
        try Self.insert(["d"], in: stack)
        let aroundReset = try reader.performAndWait {
            let before = try Self.count(in: reader)
            reader.reset()
            return (before, try Self.count(in: reader))
        }
        #expect(aroundReset == (3, 4))

        // A merge of another context's save, named by its IDs.
        let writer = stack.newContext()
        let inserted = try writer.performAndWait {
            let item = Item(context: writer)
            item.name = "e"
            try writer.save()
            return item.objectID
        }
        #expect(try reader.performAndWait { try Self.count(in: reader) } == 4)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [InsertedObjectsKey: [inserted]], into: [reader])
        #expect(try reader.performAndWait { try Self.count(in: reader) } == 5)
    }

    /// A child context reads through its parent, and a token belongs to its coordinator: both are
    /// refused with an error that says so.
    @Test func pinningAChildOrAnotherCoordinatorsTokenIsRefused() throws {
        let stack = try TestStack(.sqlite)
        let chain = ContextChain(stack, depth: 1)
        let childError = chain.leaf.performAndWait {
            #expect(throws: ObjectGraphError.self) { try chain.leaf.setQueryGenerationFrom(.current) }
        }
        #expect(childError?.code == ObjectGraphError.wrongContext)
        #expect(childError?.message.contains("parent") == true)

        let other = try TestStack(.sqlite)
        let otherContext = other.newContext()
        let foreign = try otherContext.performAndWait {
            try otherContext.setQueryGenerationFrom(.current)
            return try #require(otherContext.queryGenerationToken)
        }
        let context = stack.newContext()
        let foreignError = context.performAndWait {
            #expect(throws: ObjectGraphError.self) { try context.setQueryGenerationFrom(foreign) }
        }
        #expect(foreignError?.message.contains("another persistent store coordinator") == true)
        context.performAndWait { #expect(context.queryGenerationToken == nil) }
    }
}
