import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

// The batch-update simulator checked on its own, before it is trusted to judge the fetched results
// controller: FRC-SPEC's golden change batches pass, every UIKit rule rejects with its message,
// and seeded random lists show that valid batches give the new rows and that damaged ones never
// go unnoticed.

private func ip(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

/// Object IDs known by short labels, so controller batches in tests read like the spec's
/// examples and lists of IDs print as letters.
struct LabelledObjectIDs: Sendable {
    static let shared = LabelledObjectIDs(count: 60)

    let labels: [String]
    private let model: ManagedObjectModel
    private let idsByLabel: [String: ManagedObjectID]
    private let labelsByID: [ManagedObjectID: String]

    init(count: Int) {
        let entity = EntityDescription(name: "Row")
        model = ManagedObjectModel(entities: [entity])
        // A, B, …, Z, then A1, B1, …
        labels = (0..<count).map { index in
            let letter = String(UnicodeScalar(UInt8(65 + index % 26)))
            return index < 26 ? letter : letter + String(index / 26)
        }
        let ids = labels.map { _ in ManagedObject(entity: entity, insertInto: nil).objectID }
        idsByLabel = Dictionary(uniqueKeysWithValues: zip(labels, ids))
        labelsByID = Dictionary(uniqueKeysWithValues: zip(ids, labels))
    }

    func id(_ label: String) throws -> ManagedObjectID {
        guard let id = idsByLabel[label] else { throw BatchUpdateError("no object ID is labelled \(label)") }
        return id
    }

    func label(_ id: ManagedObjectID) throws -> String {
        guard let label = labelsByID[id] else { throw BatchUpdateError("\(id) has no label") }
        return label
    }
}

private let ids = LabelledObjectIDs.shared

private func sectionDelete(_ index: Int, _ name: String) -> FetchedResultsChanges.SectionChange {
    .init(type: .delete, sectionIndex: index, name: name)
}

private func sectionInsert(_ index: Int, _ name: String) -> FetchedResultsChanges.SectionChange {
    .init(type: .insert, sectionIndex: index, name: name)
}

/// A controller batch from labels: `(type, label, indexPath, newIndexPath)`.
private func frc(_ sections: [FetchedResultsChanges.SectionChange],
                 _ objects: [(FetchedResultsChangeType, String, IndexPath?, IndexPath?)]) throws -> FetchedResultsChanges {
    FetchedResultsChanges(sectionChanges: sections, objectChanges: try objects.map {
        .init(type: $0.0, objectID: try ids.id($0.1), indexPath: $0.2, newIndexPath: $0.3)
    })
}

private func frc(_ objects: [(FetchedResultsChangeType, String, IndexPath?, IndexPath?)]) throws -> FetchedResultsChanges {
    try frc([], objects)
}

private func verify(_ old: SimulatedList<String>, _ changes: FetchedResultsChanges, _ expected: SimulatedList<String>,
                    _ mapping: FetchedResultsBatchMapping, _ moveRules: MoveRules = .strict) throws {
    try old.verifyApplying(changes, mapping: mapping, moveRules: moveRules, expected: expected, item: ids.label)
}

/// Runs `body` and expects a ``BatchUpdateError`` with exactly `message`.
private func expectRejection(_ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected the rejection \"\(message)\", but the batch was accepted", sourceLocation: sourceLocation)
    } catch let error as BatchUpdateError {
        #expect(error.message == message, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a BatchUpdateError, got \(error)", sourceLocation: sourceLocation)
    }
}

private let abc = SimulatedList(items: ["A", "B", "C"])
private let xy = SimulatedList([("X", ["A", "B"]), ("Y", ["C"])])

/// A batch UIKit rejects, with the message it must be rejected with.
struct BatchRejection: Sendable, CustomTestStringConvertible {
    let rule: String
    let old: SimulatedList<String>
    let batch: ListBatch<String>
    let dataSource: SimulatedList<String>?
    let moveRules: MoveRules
    let message: String

    init(_ rule: String, _ old: SimulatedList<String>, dataSource: SimulatedList<String>? = nil, moveRules: MoveRules = .strict,
         _ message: String, _ build: (inout ListBatch<String>) -> Void) {
        self.rule = rule
        self.old = old
        var batch = ListBatch<String>()
        build(&batch)
        self.batch = batch
        self.dataSource = dataSource
        self.moveRules = moveRules
        self.message = message
    }

    var testDescription: String { rule }

    static let all: [BatchRejection] = [
        // Ranges (UIK-03)
        .init("row delete out of range", abc, "attempt to delete row 3 from section 0 which only contains 3 rows before the update") {
            $0.deleteRow(at: ip(0, 3))
        },
        .init("row delete in a missing section", abc, "attempt to delete row 0 from section 1, but there are only 1 sections before the update") {
            $0.deleteRow(at: ip(1, 0))
        },
        .init("row insert out of range", abc, "attempt to insert row 4 into section 0, but there are only 4 rows in section 0 after the update") {
            $0.insertRow(at: ip(0, 4), item: "D")
        },
        .init("row insert beyond the data source's rows", abc, dataSource: abc,
              "attempt to insert row 3 into section 0, but there are only 3 rows in section 0 after the update") {
            $0.insertRow(at: ip(0, 3), item: "D")
        },
        .init("row insert into a missing section", abc, "attempt to insert row 0 into section 1, but there are only 1 sections after the update") {
            $0.insertRow(at: ip(1, 0), item: "D")
        },
        .init("section delete out of range", xy, "attempt to delete section 2, but there are only 2 sections before the update") {
            $0.deleteSection(2)
        },
        .init("section insert out of range", xy, "attempt to insert section 3 but there are only 3 sections after the update") {
            $0.insertSection(3, name: "Z")
        },
        .init("move source out of range", abc, "attempt to move row 3 from section 0 which only contains 3 rows before the update") {
            $0.moveRow(at: ip(0, 3), to: ip(0, 0))
        },
        .init("move destination out of range", abc,
              "attempt to move index path ([0,0]) to index path ([0,3]), but there are only 3 rows in section 0 after the update") {
            $0.moveRow(at: ip(0, 0), to: ip(0, 3))
        },
        .init("malformed index path", abc, "malformed index path [0] to delete: a row index path has a section and a row") {
            $0.deleteRow(at: IndexPath(index: 0))
        },
        // The same old index path twice
        .init("row deleted twice", abc, "attempt to delete the same index path twice ([0,1])") {
            $0.deleteRow(at: ip(0, 1))
            $0.deleteRow(at: ip(0, 1))
        },
        .init("row deleted and reloaded", abc, "attempt to delete and reload the same index path ([0,1])") {
            $0.reloadRow(at: ip(0, 1))
            $0.deleteRow(at: ip(0, 1))
        },
        .init("row deleted and moved", abc, "attempt to perform a delete and a move from the same index path ([0,1])") {
            $0.deleteRow(at: ip(0, 1))
            $0.moveRow(at: ip(0, 1), to: ip(0, 0))
        },
        .init("row reloaded and moved", abc, "attempt to perform a delete and a move from the same index path ([0,1])") {
            $0.reloadRow(at: ip(0, 1))
            $0.moveRow(at: ip(0, 1), to: ip(0, 0))
        },
        .init("row moved twice", abc, "attempt to move the same index path twice ([0,1])") {
            $0.moveRow(at: ip(0, 1), to: ip(0, 0))
            $0.moveRow(at: ip(0, 1), to: ip(0, 2))
        },
        .init("row reloaded twice", abc, "attempt to reload the same index path twice ([0,1])") {
            $0.reloadRow(at: ip(0, 1))
            $0.reloadRow(at: ip(0, 1))
        },
        .init("section deleted twice", xy, "attempt to delete section 1 twice") {
            $0.deleteSection(1)
            $0.deleteSection(1)
        },
        // The same new index path twice
        .init("row inserted twice", abc, "attempt to insert the same index path twice ([0,1])") {
            $0.insertRow(at: ip(0, 1), item: "D")
            $0.insertRow(at: ip(0, 1), item: "E")
        },
        .init("row inserted and moved to", abc, "attempt to perform an insert and a move to the same index path ([0,0])") {
            $0.moveRow(at: ip(0, 2), to: ip(0, 0))
            $0.insertRow(at: ip(0, 0), item: "D")
        },
        .init("two rows moved to one index path", abc, "attempt to perform two moves to the same index path ([0,0])") {
            $0.moveRow(at: ip(0, 1), to: ip(0, 0))
            $0.moveRow(at: ip(0, 2), to: ip(0, 0))
        },
        .init("section inserted twice", xy, "attempt to insert section 0 twice") {
            $0.insertSection(0, name: "Z")
            $0.insertSection(0, name: "W")
        },
        // Moves across section changes (CHG-12), strict as UITableView
        .init("move from a deleted section", xy, "cannot move an item from a deleted section (0)") {
            $0.deleteSection(0)
            $0.deleteRow(at: ip(0, 1))
            $0.moveRow(at: ip(0, 0), to: ip(0, 1))
        },
        .init("move into an inserted section", xy, "cannot move a row into a newly inserted section (2)") {
            $0.insertSection(2, name: "Z")
            $0.moveRow(at: ip(1, 0), to: ip(2, 0))
        },
        .init("reload in a deleted section", xy, "attempt to reload row 0 in section 1, which is being deleted") {
            $0.deleteSection(1)
            $0.reloadRow(at: ip(1, 0))
        },
        // Counts against the data source (UIK-02)
        .init("rows not matching the data source", abc, dataSource: abc, """
            Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the \
            update (3) must be equal to the number of rows contained in that section before the update (3), plus or minus the \
            number of rows inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the number of rows \
            moved into or out of that section (0 moved in, 0 moved out).
            """) {
            $0.deleteRow(at: ip(0, 0))
        },
        .init("rows moved out not matching the data source", xy, dataSource: xy, """
            Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the \
            update (2) must be equal to the number of rows contained in that section before the update (2), plus or minus the \
            number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows \
            moved into or out of that section (0 moved in, 1 moved out).
            """) {
            $0.moveRow(at: ip(0, 0), to: ip(1, 0))
        },
        .init("sections not matching the data source", xy, dataSource: xy, """
            Invalid update: invalid number of sections. The number of sections contained in the table view after the update (2) \
            must be equal to the number of sections contained in the table view before the update (2), plus or minus the number \
            of sections inserted or deleted (0 inserted, 1 deleted).
            """) {
            $0.deleteSection(1)
        },
        .init("new section the batch leaves short", xy, dataSource: SimulatedList([("X", ["A", "B"]), ("Y", ["C"]), ("Z", ["E", "D"])]),
              "attempt to insert row 1 into section 2, but there are only 1 rows in section 2 after the update") {
            $0.insertSection(2, name: "Z")
            $0.insertRow(at: ip(2, 1), item: "D")
        },
        // Identity: the right count at the wrong index path
        .init("delete names another item", abc, "attempt to delete C at [0,1], which holds B before the update") {
            $0.deleteRow(at: ip(0, 1), item: "C")
        },
        .init("move names another item", abc, "attempt to move B at [0,0], which holds A before the update") {
            $0.moveRow(at: ip(0, 0), to: ip(0, 2), item: "B")
        },
        .init("reload names another item", abc, "attempt to reload A at [0,2], which holds C before the update") {
            $0.reloadRow(at: ip(0, 2), item: "A")
        },
        .init("section delete names another section", xy, "attempt to delete section 1 \"X\", which is \"Y\" before the update") {
            $0.deleteSection(1, name: "X")
        },
        // Reconfiguring after the batch, in the new frame (UIK-04)
        .init("reconfigure at the old index path after rows shifted (CHG-09)", abc,
              "attempt to reconfigure row 2 in section 0, but there are only 2 rows in section 0 after the update") {
            $0.deleteRow(at: ip(0, 0), item: "A")
            $0.reconfigureRow(at: ip(0, 2), item: "C")
        },
        .init("reconfigure finds another item", abc, "attempt to reconfigure B at [0,1], which holds C after the update") {
            $0.deleteRow(at: ip(0, 0), item: "A")
            $0.reconfigureRow(at: ip(0, 1), item: "B")
        },
    ]
}

/// A controller batch that breaks the controller's own contract, whatever UIKit would say.
struct ChangeRejection: Sendable, CustomTestStringConvertible {
    let rule: String
    let old: SimulatedList<String>
    let sections: [FetchedResultsChanges.SectionChange]
    let objects: [Object]
    let expected: SimulatedList<String>
    let message: String

    struct Object: Sendable {
        let type: FetchedResultsChangeType
        let label: String
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }

    init(_ rule: String, _ old: SimulatedList<String>, _ sections: [FetchedResultsChanges.SectionChange],
         _ objects: [(FetchedResultsChangeType, String, IndexPath?, IndexPath?)], expected: SimulatedList<String>, _ message: String) {
        self.rule = rule
        self.old = old
        self.sections = sections
        self.objects = objects.map { Object(type: $0.0, label: $0.1, indexPath: $0.2, newIndexPath: $0.3) }
        self.expected = expected
        self.message = message
    }

    var testDescription: String { rule }

    func changes() throws -> FetchedResultsChanges {
        try frc(sections, objects.map { ($0.type, $0.label, $0.indexPath, $0.newIndexPath) })
    }

    static let all: [ChangeRejection] = [
        .init("insert with an old index path", abc, [], [(.insert, "D", ip(0, 0), ip(0, 0))], expected: SimulatedList(items: ["D", "A", "B", "C"]),
              "an insert has a newIndexPath and no indexPath: insert [0,0] → [0,0] D"),
        .init("delete with a new index path", abc, [], [(.delete, "A", ip(0, 0), ip(0, 0))], expected: SimulatedList(items: ["B", "C"]),
              "a delete has an indexPath and no newIndexPath: delete [0,0] → [0,0] A"),
        .init("move without a new index path", abc, [], [(.move, "A", ip(0, 0), nil)], expected: abc,
              "a move has both an indexPath and a newIndexPath: move [0,0] → - A"),
        .init("update without an old index path", abc, [], [(.update, "A", nil, ip(0, 0))], expected: abc,
              "an update has an indexPath: update - → [0,0] A"),
        .init("move to the same index path (CHG-08)", abc, [], [(.move, "B", ip(0, 1), ip(0, 1))], expected: abc,
              "a move to the same index path is reported as an update with no newIndexPath (CHG-08): move [0,1] → [0,1] B"),
        .init("one object reported twice (CHG-03)", abc, [], [(.update, "B", ip(0, 1), nil), (.move, "B", ip(0, 1), ip(0, 0))],
              expected: SimulatedList(items: ["B", "A", "C"]),
              "B is reported twice in one batch: update [0,1] → - B and move [0,1] → [0,0] B"),
        .init("section change that is a move", xy, [.init(type: .move, sectionIndex: 0, name: "X")], [], expected: xy,
              "a section change is an insert or a delete, not a move: section move 0 \"X\""),
        .init("row of a deleted section not reported (CHG-02)", xy, [sectionDelete(0, "X")], [(.delete, "A", ip(0, 0), nil)],
              expected: SimulatedList([("Y", ["C"])]),
              "B at [0,1] leaves with its deleted section but is not reported as deleted or moved"),
    ]
}

@Suite struct BatchUpdateSimulatorTests {
    // MARK: UIKit's index conventions (UIK-01)

    @Test func deletesUseOldIndexPathsAndInsertsNewOnes() throws {
        var atFront = ListBatch<String>()
        atFront.deleteRow(at: ip(0, 0), item: "A")
        atFront.insertRow(at: ip(0, 0), item: "D")
        #expect(try abc.applying(atFront) == SimulatedList(items: ["D", "B", "C"]))

        var atEnd = ListBatch<String>()
        atEnd.insertRow(at: ip(0, 2), item: "D")
        atEnd.deleteRow(at: ip(0, 0), item: "A")
        #expect(try abc.applying(atEnd) == SimulatedList(items: ["B", "C", "D"]))
    }

    @Test func insertsLandAtTheirIndexPathsWhateverTheCallOrder() throws {
        var descending = ListBatch<String>()
        descending.insertRow(at: ip(0, 4), item: "E")
        descending.insertRow(at: ip(0, 1), item: "D")
        var ascending = ListBatch<String>()
        ascending.insertRow(at: ip(0, 1), item: "D")
        ascending.insertRow(at: ip(0, 4), item: "E")
        let expected = SimulatedList(items: ["A", "D", "B", "C", "E"])
        #expect(try abc.applying(descending) == expected)
        #expect(try abc.applying(ascending) == expected)
    }

    @Test func reloadedRowsStayInPlaceRelativeToUnmovedRows() throws {
        var batch = ListBatch<String>()
        batch.deleteRow(at: ip(0, 0), item: "A")
        batch.moveRow(at: ip(0, 3), to: ip(0, 0), item: "D")
        batch.reloadRow(at: ip(0, 2), item: "C")
        batch.reconfigureRow(at: ip(0, 2), item: "C")
        let old = SimulatedList(items: ["A", "B", "C", "D"])
        #expect(try old.applying(batch, dataSource: SimulatedList(items: ["D", "B", "C"])) == SimulatedList(items: ["D", "B", "C"]))
    }

    @Test func sectionsAreInsertedAtTheirNewIndexes() throws {
        var batch = ListBatch<String>()
        batch.insertSection(2, name: "Z")
        batch.insertSection(0, name: "W")
        batch.deleteSection(1, name: "Y")
        #expect(try xy.applying(batch) == SimulatedList([("W", []), ("X", ["A", "B"]), ("Z", [])]))
    }

    @Test func rowDeletesInsideADeletedSectionAreTolerated() throws {
        var batch = ListBatch<String>()
        batch.deleteSection(0, name: "X")
        batch.deleteRow(at: ip(0, 1), item: "B")
        batch.deleteRow(at: ip(0, 0), item: "A")
        let expected = SimulatedList([("Y", ["C"])])
        // Not counted: UIK-02 only counts sections that exist before and after.
        #expect(try xy.applying(batch, dataSource: expected) == expected)
    }

    @Test func rowInsertsFillAnInsertedSection() throws {
        // The classic FRC table boilerplate: a section insert plus an insert per row.
        var batch = ListBatch<String>()
        batch.insertSection(1, name: "Z")
        batch.insertRow(at: ip(1, 1), item: "E")
        batch.insertRow(at: ip(1, 0), item: "D")
        let expected = SimulatedList([("X", ["A", "B"]), ("Z", ["D", "E"]), ("Y", ["C"])])
        #expect(try xy.applying(batch, dataSource: expected) == expected)
    }

    @Test func lenientMovesActAsDeletePlusInsert() throws {
        var batch = ListBatch<String>()
        batch.deleteSection(0, name: "X")
        batch.moveRow(at: ip(0, 0), to: ip(0, 0), item: "A")
        batch.deleteRow(at: ip(0, 1), item: "B")
        batch.insertSection(1, name: "Z")
        batch.moveRow(at: ip(1, 0), to: ip(1, 0), item: "C")
        let expected = SimulatedList([("Y", ["A"]), ("Z", ["C"])])
        #expect(try xy.applying(batch, moveRules: .lenient, dataSource: expected) == expected)
    }

    @Test(arguments: BatchRejection.all)
    func rejection(_ rejection: BatchRejection) {
        expectRejection(rejection.message) {
            _ = try rejection.old.applying(rejection.batch, moveRules: rejection.moveRules, dataSource: rejection.dataSource)
        }
    }

    // MARK: Golden controller batches (FRC-SPEC sections 6 and 12)

    @Test(arguments: FetchedResultsBatchMapping.allCases)
    func insertAndDelete(mapping: FetchedResultsBatchMapping) throws {
        let changes = try frc([(.delete, "A", ip(0, 0), nil), (.insert, "D", nil, ip(0, 2))])
        try verify(abc, changes, SimulatedList(items: ["B", "C", "D"]), mapping)
    }

    @Test(arguments: FetchedResultsBatchMapping.allCases)
    func swapOfAdjacentRowsIsOneMoveAndOneUpdate(mapping: FetchedResultsBatchMapping) throws {
        // CHG-07 since iOS 10; before, two moves, which are as valid.
        let lowered = try frc([(.move, "B", ip(0, 1), ip(0, 0)), (.update, "A", ip(0, 0), ip(0, 1))])
        try verify(SimulatedList(items: ["A", "B"]), lowered, SimulatedList(items: ["B", "A"]), mapping)
        let twoMoves = try frc([(.move, "B", ip(0, 1), ip(0, 0)), (.move, "A", ip(0, 0), ip(0, 1))])
        try verify(SimulatedList(items: ["A", "B"]), twoMoves, SimulatedList(items: ["B", "A"]), mapping)
    }

    @Test(arguments: FetchedResultsBatchMapping.allCases)
    func deletingTheFirstRowBumpsTheRestAsUpdates(mapping: FetchedResultsBatchMapping) throws {
        let changes = try frc([
            (.delete, "A", ip(0, 0), nil),
            (.update, "B", ip(0, 1), ip(0, 0)), (.update, "C", ip(0, 2), ip(0, 1)), (.update, "D", ip(0, 3), ip(0, 2)),
        ])
        try verify(SimulatedList(items: ["A", "B", "C", "D"]), changes, SimulatedList(items: ["B", "C", "D"]), mapping)
    }

    @Test(arguments: FetchedResultsBatchMapping.allCases)
    func updateWithShiftedRowsCarriesBothIndexPaths(mapping: FetchedResultsBatchMapping) throws {
        // CHG-09: reloading the old index path inside the batch is right; reconfiguring it after
        // the batch is Apple's sample bug (see the "reconfigure at the old index path" rejection).
        let changes = try frc([(.delete, "A", ip(0, 0), nil), (.update, "C", ip(0, 2), ip(0, 1))])
        try verify(abc, changes, SimulatedList(items: ["B", "C"]), mapping)
    }

    @Test(arguments: FetchedResultsBatchMapping.allCases)
    func updateInPlaceHasNoNewIndexPath(mapping: FetchedResultsBatchMapping) throws {
        // CHG-08
        try verify(abc, try frc([(.update, "B", ip(0, 1), nil)]), abc, mapping)
    }

    @Test func moveIntoANewSection() throws {
        // CHG-12: a section insert and a move into it.
        let old = SimulatedList([("X", ["A", "B"])])
        let new = SimulatedList([("X", ["A"]), ("Y", ["B"])])
        let changes = try frc([sectionInsert(1, "Y")], [(.move, "B", ip(0, 1), ip(1, 0))])
        try verify(old, changes, new, .deleteAndInsert)
        try verify(old, changes, new, .uikitMoves, .lenient)
        expectRejection("cannot move a row into a newly inserted section (1)") {
            try verify(old, changes, new, .uikitMoves, .strict)
        }
    }

    @Test func lastRowLeavingASection() throws {
        // CHG-12: a section delete and a move out of it.
        let old = SimulatedList([("X", ["A"]), ("Y", ["B", "C"])])
        let new = SimulatedList([("Y", ["B", "A", "C"])])
        let changes = try frc([sectionDelete(0, "X")], [(.move, "A", ip(0, 0), ip(0, 1))])
        try verify(old, changes, new, .deleteAndInsert)
        try verify(old, changes, new, .uikitMoves, .lenient)
        expectRejection("cannot move an item from a deleted section (0)") {
            try verify(old, changes, new, .uikitMoves, .strict)
        }
    }

    @Test func moveAcrossSectionsMayKeepTheSameNumbers() throws {
        // [0,0] in the deleted section X and [0,0] in Y are different rows: not a CHG-08 case.
        let old = SimulatedList([("X", ["A"]), ("Y", ["B"])])
        let new = SimulatedList([("Y", ["A", "B"])])
        try verify(old, try frc([sectionDelete(0, "X")], [(.move, "A", ip(0, 0), ip(0, 0))]), new, .deleteAndInsert)
    }

    @Test(arguments: FetchedResultsBatchMapping.allCases)
    func inPlaceUpdateNeedsItsRowAmongTheUnmovedOnes(mapping: FetchedResultsBatchMapping) throws {
        // X keeps index 2, but the longest run of unmoved rows is A, B (or C, D): lowering X to
        // an in-place update (CHG-08) while moving C and D leaves it behind A and B.
        let old = SimulatedList(items: ["A", "B", "X", "C", "D"])
        let new = SimulatedList(items: ["C", "D", "X", "A", "B"])
        let lossy = try frc([(.move, "C", ip(0, 3), ip(0, 0)), (.move, "D", ip(0, 4), ip(0, 1)), (.update, "X", ip(0, 2), nil)])
        expectRejection("attempt to reconfigure X at [0,2], which holds A after the update") {
            try verify(old, lossy, new, mapping)
        }
        // Keeping X unmoved means moving the four others.
        let sound = try frc([
            (.move, "A", ip(0, 0), ip(0, 3)), (.move, "B", ip(0, 1), ip(0, 4)),
            (.move, "C", ip(0, 3), ip(0, 0)), (.move, "D", ip(0, 4), ip(0, 1)), (.update, "X", ip(0, 2), nil),
        ])
        try verify(old, sound, new, mapping)
    }

    @Test func objectIDListsCheckDirectly() throws {
        let old = try abc.map(ids.id)
        let new = try SimulatedList(items: ["B", "C"]).map(ids.id)
        let changes = try frc([(.delete, "A", ip(0, 0), nil), (.update, "C", ip(0, 2), ip(0, 1))])
        try old.verifyApplying(changes, mapping: .deleteAndInsert, expected: new)
        let batch = try ListBatch(changes, mapping: .uikitMoves)
        #expect(batch.rowReloads.map(\.indexPath) == [ip(0, 2)])
        #expect(try old.applying(batch) == new)
    }

    @Test func mismatchShowsOldBatchResultAndExpected() throws {
        do {
            try verify(SimulatedList(items: ["A", "B"]), try frc([(.delete, "A", ip(0, 0), nil)]), SimulatedList(items: ["A"]), .deleteAndInsert)
            Issue.record("a batch giving the wrong rows was accepted")
        } catch let error as BatchUpdateError {
            #expect(error.message == "the batch does not turn the old rows into the expected ones")
            #expect(error.description == """
                the batch does not turn the old rows into the expected ones
                  mapping:  delete and insert, strict moves
                  old:      ""[A, B]
                  batch:    delete [0,0] → - A
                  result:   ""[B]
                  expected: ""[A]
                """)
        }
    }

    @Test func rejectionsCarryTheListsToo() throws {
        do {
            try verify(abc, try frc([(.delete, "A", ip(0, 5), nil)]), SimulatedList(items: ["B", "C"]), .deleteAndInsert)
            Issue.record("an out-of-range delete was accepted")
        } catch let error as BatchUpdateError {
            #expect(error.message == "attempt to delete row 5 from section 0 which only contains 3 rows before the update")
            #expect(error.details.contains("result:   (rejected)"))
            #expect(error.details.contains("expected: \"\"[B, C]"))
        }
    }

    @Test(arguments: ChangeRejection.all)
    func controllerContract(_ rejection: ChangeRejection) throws {
        let changes = try rejection.changes()
        for mapping in FetchedResultsBatchMapping.allCases {
            expectRejection(rejection.message) {
                try verify(rejection.old, changes, rejection.expected, mapping, .lenient)
            }
        }
    }

    // MARK: Snapshots (SNP-02, SNP-03) and differences (SNP-06)

    @Test func unsectionedSnapshotBecomesOneUnnamedSection() throws {
        let snapshot = FetchedResultsSnapshot(
            sections: [(FetchedResultsSnapshot.unsectionedIdentifier, try ["A", "B"].map(ids.id))],
            reloadedItemIdentifiers: [try ids.id("B")])
        #expect(try SimulatedList(snapshot: snapshot).map(ids.label) == SimulatedList(items: ["A", "B"]))
    }

    @Test func snapshotRejectsDuplicateSections() throws {
        let snapshot = FetchedResultsSnapshot(sections: [("X", [try ids.id("A")]), ("X", [try ids.id("B")])])
        expectRejection("Fatal: supplied section identifiers are not unique. Duplicate identifiers: {\"X\"}") {
            _ = try SimulatedList(snapshot: snapshot)
        }
    }

    @Test func snapshotRejectsAnItemInTwoSections() throws {
        let a = try ids.id("A")
        let snapshot = FetchedResultsSnapshot(sections: [("X", [a]), ("Y", [try ids.id("B"), a])])
        expectRejection("Fatal: supplied item identifiers are not unique. Duplicate identifiers: {\(itemText(a))}") {
            _ = try SimulatedList(snapshot: snapshot)
        }
    }

    @Test func snapshotRejectsReloadingAMissingItem() throws {
        let d = try ids.id("D")
        let snapshot = FetchedResultsSnapshot(sections: [("X", [try ids.id("A")])], reloadedItemIdentifiers: [d])
        expectRejection("Attempted to reload item identifier that does not exist in the snapshot: \(itemText(d))") {
            _ = try SimulatedList(snapshot: snapshot)
        }
    }

    @Test func pureUpdateIsAnAssociatedPairAtTheSameOffset() throws {
        let difference = try #require(CollectionDifference<String>([
            .remove(offset: 1, element: "B", associatedWith: 1), .insert(offset: 1, element: "B", associatedWith: 1),
        ]))
        #expect(try ["A", "B", "C"].applyingChecked(difference) == ["A", "B", "C"])
    }

    @Test func differenceRemovalMustNameTheOldElement() throws {
        let difference = try #require(CollectionDifference<String>([.remove(offset: 1, element: "C", associatedWith: nil)]))
        // Array.applying would happily remove B.
        #expect(["A", "B", "C"].applying(difference) == ["A", "C"])
        expectRejection("remove at offset 1 names C, but the old array holds B there") {
            _ = try ["A", "B", "C"].applyingChecked(difference)
        }
    }

    @Test func differenceRemovalOutOfRange() throws {
        let difference = try #require(CollectionDifference<String>([.remove(offset: 3, element: "D", associatedWith: nil)]))
        expectRejection("remove at offset 3 is out of range: the old array has 3 elements") {
            _ = try ["A", "B", "C"].applyingChecked(difference)
        }
    }

    @Test func differenceThatDoesNotApply() throws {
        let difference = try #require(CollectionDifference<String>([.insert(offset: 5, element: "D", associatedWith: nil)]))
        expectRejection("the difference does not apply to an array of 3 elements (Array.applying returned nil)") {
            _ = try ["A", "B", "C"].applyingChecked(difference)
        }
    }

    @Test func differencePairMustCarryOneElement() throws {
        let difference = try #require(CollectionDifference<String>([
            .remove(offset: 0, element: "A", associatedWith: 1), .insert(offset: 1, element: "D", associatedWith: 0),
        ]))
        expectRejection("remove of A at offset 0 is paired with the insert at offset 1, which inserts D") {
            _ = try ["A", "B", "C"].applyingChecked(difference)
        }
    }
}

// MARK: - Randomized self-checks

extension BatchUpdateSimulatorTests {
    @Test func randomValidBatchesGiveTheNewRows() throws {
        for seed in UInt64(0)..<2_000 {
            var generator = SplitMix64(seed: seed)
            let (old, new) = randomListPair(&generator)
            let batch = randomValidBatch(from: old, to: new, &generator)
            let context: Comment = "seed \(seed)\nold: \(old)\nnew: \(new)\nbatch:\n\(batch)"
            #expect(try old.applying(batch) == new, context)
            #expect(try old.applying(batch, dataSource: new) == new, context)
        }
    }

    @Test func damagedBatchesNeverPassSilently() throws {
        var caughtByRules = 0
        var caughtByResult = 0
        for seed in UInt64(0)..<400 {
            var generator = SplitMix64(seed: seed)
            let (old, new) = randomListPair(&generator)
            let batch = randomValidBatch(from: old, to: new, &generator)
            for mutation in mutations(of: batch) {
                let context: Comment = "seed \(seed), \(mutation.name)\nold: \(old)\nnew: \(new)\nbatch:\n\(mutation.batch)"
                do {
                    let result = try old.applying(mutation.batch)
                    if mutation.isNoOp {
                        #expect(result == new, context)
                    } else if result == new {
                        Issue.record("a damaged batch gave the new rows: \(context)")
                    } else {
                        caughtByResult += 1
                    }
                } catch is BatchUpdateError {
                    #expect(!mutation.isNoOp, context)
                    caughtByRules += 1
                }
            }
        }
        #expect(caughtByRules > 10_000)
        #expect(caughtByResult > 1_000)
    }

    @Test func randomControllerBatchesPassTheRecommendedMapping() throws {
        let chg12 = ["cannot move an item from a deleted section", "cannot move a row into a newly inserted section"]
        var strictRejections = 0
        for seed in UInt64(0)..<1_000 {
            var generator = SplitMix64(seed: seed)
            let (old, new) = randomListPair(&generator)
            let (changes, movesAcrossSectionChanges) = try randomControllerBatch(from: old, to: new, &generator)
            try verify(old, changes, new, .deleteAndInsert)
            try verify(old, changes, new, .uikitMoves, .lenient)
            do {
                try verify(old, changes, new, .uikitMoves, .strict)
                #expect(!movesAcrossSectionChanges, "seed \(seed)")
            } catch let error as BatchUpdateError {
                #expect(movesAcrossSectionChanges && chg12.contains { error.message.hasPrefix($0) }, "seed \(seed): \(error)")
                strictRejections += 1
            }
            // The snapshot of the new rows, with the batch's updates and moves as reloads.
            let reloaded = changes.objectChanges.filter { $0.type == .update || $0.type == .move }.map(\.objectID)
            let snapshot = FetchedResultsSnapshot(sections: try new.sections.map { ($0.name, try $0.items.map(ids.id)) },
                                                  reloadedItemIdentifiers: reloaded)
            #expect(try SimulatedList(snapshot: snapshot).map(ids.label) == new, "seed \(seed)")
        }
        #expect(strictRejections > 200)
    }

    @Test func randomDifferencesApplyToTheOldRows() throws {
        for seed in UInt64(0)..<1_000 {
            var generator = SplitMix64(seed: seed)
            let (oldList, newList) = randomListPair(&generator)
            let old = oldList.sections.flatMap(\.items)
            let new = newList.sections.flatMap(\.items)
            // SNP-06: inserts, deletes, and an associated pair for every move or update.
            let stayers = Set(longestCommonSubsequence(old, new).map { old[$0.0] })
            var changes: [CollectionDifference<String>.Change] = []
            for (offset, item) in old.enumerated() {
                let newOffset = new.firstIndex(of: item)
                let paired = newOffset != nil && (!stayers.contains(item) || chance(0.3, &generator))
                changes.append(.remove(offset: offset, element: item, associatedWith: paired ? newOffset : nil))
                if let newOffset, paired {
                    changes.append(.insert(offset: newOffset, element: item, associatedWith: offset))
                }
            }
            for (offset, item) in new.enumerated() where !old.contains(item) {
                changes.append(.insert(offset: offset, element: item, associatedWith: nil))
            }
            // Stayers that are not updated are not in the difference at all.
            changes.removeAll { change in
                guard case .remove(_, let item, nil) = change else { return false }
                return new.contains(item)
            }
            let difference = try #require(CollectionDifference(changes), "seed \(seed)")
            #expect(try old.applyingChecked(difference) == new, "seed \(seed): \(old) → \(new)")
        }
    }
}

private func chance(_ probability: Double, _ generator: inout SplitMix64) -> Bool {
    Double.random(in: 0..<1, using: &generator) < probability
}

/// Random old and new rows in up to four named sections, with items kept, reordered, moved
/// across sections, removed and added, and sections kept, reordered, removed and added.
private func randomListPair(_ generator: inout SplitMix64) -> (old: SimulatedList<String>, new: SimulatedList<String>) {
    let namePool = (0..<6).map { "s\($0)" }.shuffled(using: &generator)
    let itemPool = ids.labels.shuffled(using: &generator)
    let oldNames = Array(namePool.prefix(Int.random(in: 0...4, using: &generator)))
    let oldItems = oldNames.isEmpty ? [] : Array(itemPool.prefix(Int.random(in: 0...12, using: &generator)))
    var old = SimulatedList<String>(sections: oldNames.map { .init($0, []) })
    for item in oldItems {
        old.sections[Int.random(in: oldNames.indices, using: &generator)].items.append(item)
    }

    var newNames = oldNames.filter { _ in chance(0.75, &generator) }
    if chance(0.2, &generator) { newNames.shuffle(using: &generator) }
    for name in namePool.dropFirst(oldNames.count).prefix(Int.random(in: 0...2, using: &generator)) {
        newNames.insert(name, at: Int.random(in: 0...newNames.count, using: &generator))
    }
    var new = SimulatedList<String>(sections: newNames.map { .init($0, []) })
    guard !newNames.isEmpty else { return (old, new) }
    for section in old.sections {
        for item in section.items where chance(0.75, &generator) {
            var target = Int.random(in: newNames.indices, using: &generator)
            if let same = newNames.firstIndex(of: section.name), chance(0.7, &generator) { target = same }
            new.sections[target].items.append(item)
        }
    }
    for _ in 0..<Int.random(in: 0...2, using: &generator) {
        let section = Int.random(in: newNames.indices, using: &generator)
        let count = new.sections[section].items.count
        guard count >= 2 else { continue }
        new.sections[section].items.swapAt(Int.random(in: 0..<count, using: &generator), Int.random(in: 0..<count, using: &generator))
    }
    for item in itemPool.dropFirst(oldItems.count).prefix(Int.random(in: 0...4, using: &generator)) {
        let section = Int.random(in: newNames.indices, using: &generator)
        new.sections[section].items.insert(item, at: Int.random(in: 0...new.sections[section].items.count, using: &generator))
    }
    return (old, new)
}

/// Index pairs of one longest common subsequence: the independent reference for what stays put.
private func longestCommonSubsequence<T: Equatable>(_ a: [T], _ b: [T]) -> [(Int, Int)] {
    guard !a.isEmpty, !b.isEmpty else { return [] }
    var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in a.indices.reversed() {
        for j in b.indices.reversed() {
            lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
        }
    }
    var pairs: [(Int, Int)] = []
    var (i, j) = (0, 0)
    while i < a.count, j < b.count {
        if a[i] == b[j] {
            pairs.append((i, j))
            (i, j) = (i + 1, j + 1)
        } else if lengths[i + 1][j] >= lengths[i][j + 1] {
            i += 1
        } else {
            j += 1
        }
    }
    return pairs
}

/// The rows of a section that a controller may leave unmoved: a longest common subsequence among
/// those containing every row whose index does not change, because CHG-08 reports such a row as
/// an in-place update, never as a move.
private func unmovedRows(_ a: [String], _ b: [String]) -> Set<String> {
    let anchors = a.indices.filter { b.indices.contains($0) && a[$0] == b[$0] }
    var unmoved = Set(anchors.map { a[$0] })
    var lower = 0
    // Anchors sit at the same index in both, so they cut both arrays at the same places.
    for upper in anchors + [max(a.count, b.count)] {
        let segmentA = Array(a[min(lower, a.count)..<min(upper, a.count)])
        let segmentB = Array(b[min(lower, b.count)..<min(upper, b.count)])
        for (i, _) in longestCommonSubsequence(segmentA, segmentB) { unmoved.insert(segmentA[i]) }
        lower = upper + 1
    }
    return unmoved
}

private func indexPaths(_ list: SimulatedList<String>) -> [String: IndexPath] {
    var result: [String: IndexPath] = [:]
    for (section, content) in list.sections.enumerated() {
        for (row, item) in content.items.enumerated() { result[item] = ip(section, row) }
    }
    return result
}

/// A batch UIKit accepts that turns `old` into `new`, built from longest common subsequences:
/// sections and rows outside them leave and come back. Some of those become moves, some kept rows
/// are reloaded, some rows of deleted sections are deleted too, and the calls come in any order.
private func randomValidBatch(from old: SimulatedList<String>, to new: SimulatedList<String>,
                              _ generator: inout SplitMix64) -> ListBatch<String> {
    var batch = ListBatch<String>()
    let sectionPairs = longestCommonSubsequence(old.sections.map(\.name), new.sections.map(\.name))
    let keptOld = Set(sectionPairs.map(\.0))
    let keptNew = Set(sectionPairs.map(\.1))
    for section in old.sections.indices where !keptOld.contains(section) {
        batch.deleteSection(section, name: chance(0.5, &generator) ? old.sections[section].name : nil)
    }
    for section in new.sections.indices where !keptNew.contains(section) {
        batch.insertSection(section, name: new.sections[section].name)
    }
    var unmoved = Set<String>()
    for (oldSection, newSection) in sectionPairs {
        let (a, b) = (old.sections[oldSection].items, new.sections[newSection].items)
        for (i, _) in longestCommonSubsequence(a, b) { unmoved.insert(a[i]) }
    }
    let newPaths = indexPaths(new)
    var moved = Set<String>()
    for (section, content) in old.sections.enumerated() {
        for (row, item) in content.items.enumerated() where !unmoved.contains(item) {
            guard keptOld.contains(section) else {
                if chance(0.5, &generator) { batch.deleteRow(at: ip(section, row), item: item) }
                continue
            }
            if let to = newPaths[item], keptNew.contains(to[0]), chance(0.5, &generator) {
                batch.moveRow(at: ip(section, row), to: to, item: item)
                moved.insert(item)
            } else {
                batch.deleteRow(at: ip(section, row), item: item)
            }
        }
    }
    for (section, content) in new.sections.enumerated() {
        for (row, item) in content.items.enumerated() {
            if !unmoved.contains(item), !moved.contains(item) { batch.insertRow(at: ip(section, row), item: item) }
            if chance(0.15, &generator) { batch.reconfigureRow(at: ip(section, row), item: item) }
        }
    }
    for (section, content) in old.sections.enumerated() {
        for (row, item) in content.items.enumerated() where unmoved.contains(item) && chance(0.2, &generator) {
            batch.reloadRow(at: ip(section, row), item: item)
        }
    }
    batch.sectionDeletions.shuffle(using: &generator)
    batch.sectionInsertions.shuffle(using: &generator)
    batch.rowDeletions.shuffle(using: &generator)
    batch.rowInsertions.shuffle(using: &generator)
    batch.rowMoves.shuffle(using: &generator)
    batch.rowReloads.shuffle(using: &generator)
    batch.rowReconfigurations.shuffle(using: &generator)
    return batch
}

/// Every batch one change away from `batch`: each change dropped, each index shifted by one.
/// A mutation is a no-op when it drops what does not change the rows: a reload, a
/// reconfiguration, or the delete of a row whose section is deleted anyway.
private func mutations(of batch: ListBatch<String>) -> [(name: String, batch: ListBatch<String>, isNoOp: Bool)] {
    typealias Batch = ListBatch<String>
    var result: [(name: String, batch: Batch, isNoOp: Bool)] = []
    let deletedSections = Set(batch.sectionDeletions.map(\.section))

    func drop<Change>(_ changes: WritableKeyPath<Batch, [Change]>, _ kind: String, isNoOp: (Change) -> Bool) {
        for index in batch[keyPath: changes].indices {
            var copy = batch
            let dropped = copy[keyPath: changes].remove(at: index)
            result.append(("drop \(kind) #\(index)", copy, isNoOp(dropped)))
        }
    }
    func shift<Change>(_ changes: WritableKeyPath<Batch, [Change]>, _ kind: String, _ field: WritableKeyPath<Change, IndexPath>) {
        for index in batch[keyPath: changes].indices {
            for (position, delta) in [(0, 1), (0, -1), (1, 1), (1, -1)] {
                var copy = batch
                copy[keyPath: changes][index][keyPath: field][position] += delta
                result.append(("shift \(kind) #\(index) index \(position) by \(delta)", copy, false))
            }
        }
    }
    func shift<Change>(_ changes: WritableKeyPath<Batch, [Change]>, _ kind: String, _ field: WritableKeyPath<Change, Int>) {
        for index in batch[keyPath: changes].indices {
            for delta in [1, -1] {
                var copy = batch
                copy[keyPath: changes][index][keyPath: field] += delta
                result.append(("shift \(kind) #\(index) by \(delta)", copy, false))
            }
        }
    }

    drop(\.sectionDeletions, "section deletion") { _ in false }
    drop(\.sectionInsertions, "section insertion") { _ in false }
    drop(\.rowDeletions, "row deletion") { deletedSections.contains($0.indexPath[0]) }
    drop(\.rowInsertions, "row insertion") { _ in false }
    drop(\.rowMoves, "row move") { _ in false }
    drop(\.rowReloads, "row reload") { _ in true }
    drop(\.rowReconfigurations, "row reconfiguration") { _ in true }
    shift(\.sectionDeletions, "section deletion", \.section)
    shift(\.sectionInsertions, "section insertion", \.section)
    shift(\.rowDeletions, "row deletion", \.indexPath)
    shift(\.rowInsertions, "row insertion", \.indexPath)
    shift(\.rowMoves, "move source", \.from)
    shift(\.rowMoves, "move destination", \.to)
    shift(\.rowReloads, "row reload", \.indexPath)
    shift(\.rowReconfigurations, "row reconfiguration", \.indexPath)
    return result
}

/// A controller batch turning `old` into `new` as FRC-SPEC section 6 describes it: deletes,
/// inserts, moves for rows that leave the unmoved set or change sections, and some updates of
/// unmoved rows (in place: no newIndexPath). Also says whether a move leaves a deleted section or
/// enters an inserted one, which strict UIKit moves reject (CHG-12).
private func randomControllerBatch(from old: SimulatedList<String>, to new: SimulatedList<String>,
                                   _ generator: inout SplitMix64) throws -> (FetchedResultsChanges, Bool) {
    let sectionPairs = longestCommonSubsequence(old.sections.map(\.name), new.sections.map(\.name))
    let keptOld = Set(sectionPairs.map(\.0))
    let keptNew = Set(sectionPairs.map(\.1))
    var sectionChanges = old.sections.indices.reversed().filter { !keptOld.contains($0) }.map { sectionDelete($0, old.sections[$0].name) }
    sectionChanges += new.sections.indices.filter { !keptNew.contains($0) }.map { sectionInsert($0, new.sections[$0].name) }
    var unmoved = Set<String>()
    for (oldSection, newSection) in sectionPairs {
        let (a, b) = (old.sections[oldSection].items, new.sections[newSection].items)
        // Equal numbers name the same place only when the section keeps its index.
        unmoved.formUnion(oldSection == newSection ? unmovedRows(a, b) : Set(longestCommonSubsequence(a, b).map { a[$0.0] }))
    }
    let oldPaths = indexPaths(old)
    let newPaths = indexPaths(new)
    var objects: [(FetchedResultsChangeType, String, IndexPath?, IndexPath?)] = []
    var movesAcrossSectionChanges = false
    for (section, content) in old.sections.enumerated() {
        for (row, item) in content.items.enumerated() where newPaths[item] == nil {
            objects.append((.delete, item, ip(section, row), nil))
        }
    }
    for (section, content) in new.sections.enumerated() {
        for (row, item) in content.items.enumerated() {
            let to = ip(section, row)
            guard let from = oldPaths[item] else {
                objects.append((.insert, item, nil, to))
                continue
            }
            if !unmoved.contains(item) {
                objects.append((.move, item, from, to))
                movesAcrossSectionChanges = movesAcrossSectionChanges || !keptOld.contains(from[0]) || !keptNew.contains(section)
            } else if chance(0.3, &generator) {
                objects.append((.update, item, from, from == to ? nil : to))
            }
        }
    }
    objects.shuffle(using: &generator)
    return (try frc(sectionChanges, objects), movesAcrossSectionChanges)
}
