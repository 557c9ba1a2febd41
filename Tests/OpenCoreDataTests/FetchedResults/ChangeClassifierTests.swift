import OpenCoreData
import Testing

/// The pure classifier on the golden cases of FRC-SPEC, with row keys standing for objects.
@Suite struct ChangeClassifierTests {
    typealias Path = ClassifiedBatch.RowPath

    private func path(_ section: Int, _ row: Int) -> Path { Path(section: section, row: row) }

    private func classify(_ sections: [(String, Int)], sectioned: Bool = true,
                          removals: [(Int64, Int)], placements: [ChangeClassifier.Placement]) -> ClassifiedBatch {
        ChangeClassifier(oldSections: sections.map { .init(name: $0.0, count: $0.1) }, isSectioned: sectioned)
            .classify(removals: removals.map { .init(rowKey: $0.0, position: $0.1) }, placements: placements)
    }

    private func changes(_ batch: ClassifiedBatch) -> Set<String> {
        Set(batch.rowChanges.map { "\($0.type) \($0.newRowKey ?? $0.oldRowKey ?? 0) \($0.from?.description ?? "-")→\($0.to?.description ?? "-")" })
    }

    @Test func swappingTwoRowsMovesOneAndUpdatesTheOther() {
        // A(1) at 0, B(2) at 1 swap sort keys (CHG-07).
        let batch = classify([("", 2)], sectioned: false, removals: [(1, 0), (2, 1)], placements: [
            .init(rowKey: 2, gap: 0, sectionName: "", keysChanged: true),
            .init(rowKey: 1, gap: 0, sectionName: "", keysChanged: true),
        ])
        #expect(changes(batch) == ["move 2 [0,1]→[0,0]", "update 1 [0,0]→[0,1]"])
        #expect(batch.sectionChanges.isEmpty)
    }

    @Test func deletingTheFirstRowAndBumpingTheRestGivesUpdates() {
        let batch = classify([("", 4)], sectioned: false, removals: [(10, 0), (11, 1), (12, 2), (13, 3)], placements: [
            .init(rowKey: 11, gap: 0, sectionName: "", keysChanged: true),
            .init(rowKey: 12, gap: 0, sectionName: "", keysChanged: true),
            .init(rowKey: 13, gap: 0, sectionName: "", keysChanged: true),
        ])
        #expect(changes(batch) == ["delete 10 [0,0]→-", "update 11 [0,1]→[0,0]", "update 12 [0,2]→[0,1]", "update 13 [0,3]→[0,2]"])
    }

    @Test func movingIntoANewSectionInsertsTheSection() {
        let batch = classify([("A", 2)], removals: [(2, 1)], placements: [
            .init(rowKey: 2, gap: 1, sectionName: "C", keysChanged: true),
        ])
        #expect(batch.sectionChanges == [.init(type: .insert, index: 1, name: "C")])
        #expect(changes(batch) == ["move 2 [0,1]→[1,0]"])
        #expect(batch.layout.map(\.name) == ["A", "C"])
    }

    @Test func theLastRowLeavingASectionDeletesIt() {
        let batch = classify([("A", 1), ("B", 1)], removals: [(2, 1)], placements: [
            .init(rowKey: 2, gap: 1, sectionName: "A", keysChanged: true),
        ])
        #expect(batch.sectionChanges == [.init(type: .delete, index: 1, name: "B")])
        #expect(changes(batch) == ["move 2 [1,0]→[0,1]"])
    }

    @Test func anUpdateCarriesItsShiftedIndexPath() {
        // Delete row 0 and change a displayed attribute of row 2 (CHG-09).
        let batch = classify([("", 3)], sectioned: false, removals: [(1, 0), (3, 2)], placements: [
            .init(rowKey: 3, gap: 1, sectionName: "", keysChanged: false),
        ])
        #expect(changes(batch) == ["delete 1 [0,0]→-", "update 3 [0,2]→[0,1]"])
    }

    @Test func aSortKeyChangeThatKeepsThePlaceIsAnUpdateWithoutNewIndexPath() {
        let batch = classify([("", 3)], sectioned: false, removals: [(2, 1)], placements: [
            .init(rowKey: 2, gap: 1, sectionName: "", keysChanged: true),
        ])
        #expect(changes(batch) == ["update 2 [0,1]→-"])
    }

    @Test func aRowThatCrossesUnchangedRowsMovesEvenToItsOwnIndexPath() {
        // [u, c, a] becomes [a, c, u]: c keeps index 1 but now precedes u, which did not change.
        let batch = classify([("", 3)], sectioned: false, removals: [(2, 1), (3, 2)], placements: [
            .init(rowKey: 3, gap: 0, sectionName: "", keysChanged: true),
            .init(rowKey: 2, gap: 0, sectionName: "", keysChanged: true),
        ])
        #expect(changes(batch) == ["move 3 [0,2]→[0,0]", "move 2 [0,1]→[0,1]"])
    }

    @Test func anIdentifierChangeInPlaceIsHeardOnlyByIdentifierConsumers() {
        let batch = classify([("", 2)], sectioned: false, removals: [(-5, 1)], placements: [
            .init(rowKey: 9, previousRowKey: -5, gap: 1, sectionName: "", keysChanged: false, reportsUpdate: false),
        ])
        #expect(batch.rowChanges.isEmpty)
        #expect(batch.identifierChanges.map(\.newRowKey) == [9])
        #expect(!batch.isEmpty)
    }

    @Test func anUnsectionedLayoutKeepsItsEmptySection() {
        let batch = classify([("", 1)], sectioned: false, removals: [(1, 0)], placements: [])
        #expect(batch.layout == [.init(name: "", count: 0, oldIndex: 0)])
        #expect(batch.sectionChanges.isEmpty)
    }

    @Test func aSectionEmptiedAndRefilledInOneBatchIsTheSameSection() {
        // A:[1], B:[2], C:[3]; 2 leaves and 4 arrives in B.
        let batch = classify([("A", 1), ("B", 1), ("C", 1)], removals: [(2, 1)], placements: [
            .init(rowKey: 4, gap: 1, sectionName: "B", keysChanged: true),
        ])
        #expect(batch.sectionChanges.isEmpty)
        #expect(changes(batch) == ["delete 2 [1,0]→-", "insert 4 -→[1,0]"])
    }

    @Test func aNewSectionCanOpenBeforeASectionThatEmptiedAndRefilled() {
        // A:[1], B:[2], D:[3]; 2 leaves, then C opens and B refills at the same boundary.
        let batch = classify([("A", 1), ("B", 1), ("D", 1)], removals: [(2, 1)], placements: [
            .init(rowKey: 5, gap: 1, sectionName: "C", keysChanged: true),
            .init(rowKey: 6, gap: 1, sectionName: "B", keysChanged: true),
        ])
        #expect(batch.layout.map(\.name) == ["A", "C", "B", "D"])
        #expect(batch.outOfOrderRows.isEmpty)
        #expect(batch.sectionChanges == [.init(type: .insert, index: 1, name: "C")])
        #expect(changes(batch) == ["delete 2 [1,0]→-", "insert 5 -→[1,0]", "insert 6 -→[2,0]"])
    }

    @Test func aSectionThatWouldComeBackBeforeANewOneBreaksTheOrder() {
        // A:[1], B:[2], D:[3]; 2 leaves; B's new row sorts before C's, but B was already passed.
        let batch = classify([("A", 1), ("B", 1), ("D", 1)], removals: [(2, 1)], placements: [
            .init(rowKey: 6, gap: 1, sectionName: "B", keysChanged: true),
            .init(rowKey: 5, gap: 1, sectionName: "C", keysChanged: true),
            .init(rowKey: 7, gap: 1, sectionName: "B", keysChanged: true),
        ])
        #expect(batch.layout.map(\.name) == ["A", "B", "C", "D"])
        #expect(batch.outOfOrderRows == [.init(rowKey: 7, sectionName: "B", shownInSection: "C")])
    }

    @Test func aRowWhoseNameBreaksTheSectionOrderIsShownWhereItLands() {
        let batch = classify([("A", 2), ("B", 2)], removals: [], placements: [
            .init(rowKey: 9, gap: 1, sectionName: "B", keysChanged: true),
        ])
        #expect(batch.outOfOrderRows == [.init(rowKey: 9, sectionName: "B", shownInSection: "A")])
        #expect(changes(batch) == ["insert 9 -→[0,1]"])
    }

    @Test func rowsIntoAnEmptySectionedResultOpenSectionsInOrder() {
        let batch = classify([], removals: [], placements: [
            .init(rowKey: 1, gap: 0, sectionName: "A", keysChanged: true),
            .init(rowKey: 2, gap: 0, sectionName: "A", keysChanged: true),
            .init(rowKey: 3, gap: 0, sectionName: "B", keysChanged: true),
        ])
        #expect(batch.layout.map(\.name) == ["A", "B"])
        #expect(batch.sectionChanges.map(\.index) == [0, 1])
        #expect(changes(batch) == ["insert 1 -→[0,0]", "insert 2 -→[0,1]", "insert 3 -→[1,0]"])
    }
}
