import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

// A controller compares rows by sort keys it keeps only for rows it has compared. A small list
// fetched with a batch size knows none at first: its first search that must read the store reads
// the keys of all its rows, so that later batches read nothing (SortKeyReader).

@Suite struct SmallResultKeyTests {
    @Test(arguments: StoreKind.allCases)
    func aSmallListReadsItsKeysFromTheStoreOnce(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let writer = stack.newContext()
        let ids = try writer.performAndWait {
            let cards = (0..<200).map { number in
                let card = Card(context: writer)
                card.rank = Int32(number % 50)
                card.title = String(format: "c%03d", number)
                return card
            }
            try writer.save()
            return cards.map(\.objectID)
        }
        let view = stack.newContext()
        view.automaticallyMergesChangesFromParent = true
        let (controller, recorder) = try view.performAndWait {
            let request = Card.fetchRequest()
            request.predicate = try FetchPredicate(format: "rank < 25")
            request.sortDescriptors = [FetchSortDescriptor(key: "rank"), FetchSortDescriptor(key: "title")]
            request.fetchBatchSize = 20
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            return (controller, recorder)
        }
        var random = SplitMix64(seed: 11)
        for _ in 0..<30 {
            try writer.performAndWait {
                let card = try #require(try writer.existingObject(with: ids[Int(random.next() % 200)]) as? Card)
                card.rank = Int32(random.next() % 50)
                try writer.save()
            }
            view.performAndWait {}
        }
        try view.performAndWait {
            #expect(recorder.batches.count > 10)
            let reads = try #require(controller.engine?.reader.storeReads)
            #expect(reads <= 2, "a list of \(controller.fetchedObjects?.count ?? 0) rows read keys from the store \(reads) times")
            let fresh = try view.fetch(controller.fetchRequest).map(\.objectID)
            #expect(controller.fetchedObjects?.map(\.objectID) == fresh)
        }
    }
}
