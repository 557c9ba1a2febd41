import Foundation
import OpenCoreData
import Testing

/// `shouldRefreshRefetchedObjects`: by default a fetch leaves the values of objects the context
/// holds as they are; with it, refetched objects take the store's values under their unsaved
/// changes.
@Suite struct RefetchedObjectsTests {
    @Test(arguments: StoreKind.withPostgres)
    func refetchedObjectsTakeTheStoresValuesOnlyWhenAsked(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let reader = stack.newContext()
        let item = try reader.performAndWait {
            let item = Item(context: reader)
            item.name = "first"
            try reader.save()
            return item
        }
        let writer = stack.newContext()
        try writer.performAndWait {
            let copy = try #require(try writer.existingObject(with: item.objectID) as? Item)
            copy.name = "second"
            try writer.save()
        }
        try reader.performAndWait {
            #expect(try reader.fetch(FetchRequest<Item>(entityName: "Item")).map(\.name) == ["first"])
            #expect(!reader.hasChanges)

            item.done = true
            let refreshing = FetchRequest<Item>(entityName: "Item")
            refreshing.shouldRefreshRefetchedObjects = true
            #expect(try reader.fetch(refreshing).map(\.name) == ["second"])
            // The unsaved change stays on top, and is still a change.
            #expect(item.done && item.hasChanges)
            #expect(item.committedValues(forKeys: ["name"])["name"] as? String == "second")
            try reader.save()
        }
        try writer.performAndWait {
            let copy = try #require(try writer.existingObject(with: item.objectID) as? Item)
            writer.refresh(copy, mergeChanges: false)
            #expect(copy.name == "second" && copy.done)
            copy.name = "third"
            try writer.save()
        }
        // A batched fetch refreshes the objects the context holds too.
        let names = try reader.performAndWait {
            let batched = FetchRequest<Item>(entityName: "Item")
            batched.fetchBatchSize = 5
            batched.shouldRefreshRefetchedObjects = true
            return try reader.fetch(batched).map(\.name)
        }
        #expect(names == ["third"])
    }
}
