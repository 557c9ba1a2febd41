import FetchedResultsChecking
import Foundation
import GRDB
@testable import OpenCoreData
import Testing

/// A controller places rows by the keys they had when it placed them. When another program
/// changes a row in the store file, an object loaded afterwards holds values the row was not
/// placed with; changing that object must still give a batch that applies to the old rows and
/// places the row by its new key, with the row's old place found by its row, not its key.
@Suite struct FetchedResultsStaleKeyTests {
    /// Forty cards ranked 0...39 (titled c00...c39); the controller's context has loaded none of them.
    private func stack() throws -> (TestStack, [ManagedObjectID]) {
        let stack = try TestStack(.sqlite)
        let seeding = stack.newContext()
        let ids = try seeding.performAndWait { () throws -> [ManagedObjectID] in
            let cards = (0..<40).map { Spec.insert(CardSeed(String(format: "c%02d", $0), rank: Int32($0)), into: seeding) }
            try seeding.save()
            return cards.map(\.objectID)
        }
        return (stack, ids)
    }

    private static func identifiers(of request: OpenCoreData.FetchRequest<Card>) -> OpenCoreData.FetchRequest<ManagedObjectID> {
        let identifiers = OpenCoreData.FetchRequest<ManagedObjectID>(entityName: "Card")
        identifiers.resultType = .managedObjectIDResultType
        identifiers.sortDescriptors = request.sortDescriptors
        return identifiers
    }

    /// Another program's write, straight to the file.
    private func writeBehindTheLibrary(_ url: URL, rank: Int32, ofKey key: Int64) throws {
        let other = try DatabaseQueue(path: url.path)
        try other.write { db in
            try db.execute(sql: #"UPDATE "Card" SET "rank" = ? WHERE "_pk" = ?"#, arguments: [rank, key])
        }
        try other.close()
    }

    /// Ranks written elsewhere far from the row's place or near it (in the same chunk of the
    /// index at length 8), and new ranks far away or next to the old place; at rank 10 in one
    /// chunk, the search for the new place compares with the row's own old place, where trusting
    /// the written rank would send it the wrong way.
    @Test(arguments: [(8, Int32(33), Int32(20)), (8, Int32(7), Int32(20)), (8, Int32(33), Int32(6)), (8, Int32(7), Int32(6)),
                      (RowList.standardMaximumChunkLength, Int32(33), Int32(20)), (RowList.standardMaximumChunkLength, Int32(33), Int32(6)),
                      (RowList.standardMaximumChunkLength, Int32(33), Int32(10))])
    func aRowChangedElsewhereThenHereIsPlacedByItsNewKey(chunkLength: Int, storedRank: Int32, newRank: Int32) throws {
        let (stack, ids) = try stack()
        let context = stack.newContext()
        try context.performAndWait {
            let controller = try Spec.controller(context)
            controller.rowChunkLength = chunkLength
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            // The rows as placed, read without loading any object.
            let before = SimulatedList(items: try context.fetch(Self.identifiers(of: controller.fetchRequest)))

            // c05 is written elsewhere (its row stays where rank 5 put it), then loaded here with
            // the stored rank, and given a new rank in this context.
            let id = ids[5]
            try writeBehindTheLibrary(stack.storeURL, rank: storedRank, ofKey: try #require(id.primaryKey))
            let card = try #require(try context.existingObject(with: id) as? Card)
            #expect(card.rank == storedRank)
            card.rank = newRank
            context.processPendingChanges()

            let expected = SimulatedList(items: try context.fetch(Self.identifiers(of: controller.fetchRequest)))
            let batch = try #require(recorder.batches.last)
            try before.verifyApplying(batch, mapping: .deleteAndInsert, expected: expected)
            try before.verifyApplying(batch, mapping: .uikitMoves, moveRules: .lenient, expected: expected)
            #expect(controller.fetchedObjects?.map(\.objectID) == expected.sections.first?.items)
            // Ranks below the new one but 5 come first; the tie with the same rank, by title, after.
            #expect(controller.indexPath(forObject: card) == IndexPath(row: Int(newRank) - (newRank > 5 ? 1 : 0), section: 0))
        }
    }
}
