import DoneApp
import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Done (seed 001): items added with a name and a creation date, listed oldest first, ticked off
/// with the done button and deleted, each change saved at once and reported to the table by the
/// list's controller. Every batch is applied to the table's rows with UIKit's rules and compared
/// with a fresh fetch.
@Suite struct DoneListTests {
    @Test func itemsAreRequiredAndStartNotDone() throws {
        let session = try SeedAppSession<TodoList>()
        let entity = try #require(session.entity)
        #expect(entity.attributesByName["done"]?.defaultValue as? Bool == false)
        #expect(entity.attributesByName.values.allSatisfy { !$0.isOptional }, "the seed marks every attribute required")

        let milk = try session.saved { try $0.add("  milk ") }.row
        #expect(milk.name == "milk" && !milk.done)
        let fresh = session.container.newBackgroundContext()
        let stored = try fresh.performAndWait { () throws -> (Bool, Date) in
            let item = try #require(try fresh.fetch(TodoList.fetchRequest()).first)
            return (item.done, item.createdAt)
        }
        #expect(stored == (false, session.clock.last))
    }

    /// The seed's session: three items added, one ticked off and back, one deleted.
    @Test func theSeedsSession() throws {
        let session = try SeedAppSession<TodoList>()
        var changes: [[String]] = []
        for name in ["milk", "eggs", "bread"] {
            let (row, batch) = try session.saved { try $0.add(name) }
            #expect(batch.objectChanges.map(\.objectID) == [row.objectID])
            changes.append(batch.summary)
        }
        let ticked = try session.saved { try $0.toggle(number: 2) }
        #expect(ticked.row.name == "eggs" && ticked.row.done)
        let unticked = try session.saved { try $0.toggle(number: 2) }
        #expect(!unticked.row.done)
        try session.saved { try $0.toggle(number: 3) }
        let deleted = try session.saved { try $0.delete(number: 1) }
        #expect(deleted.row.name == "milk")
        changes += [ticked.changes.summary, unticked.changes.summary, deleted.changes.summary]

        #expect(changes == [["insert -→[0,0]"], ["insert -→[0,1]"], ["insert -→[0,2]"],
                            ["update [0,1]→[0,1]"], ["update [0,1]→[0,1]"], ["delete [0,0]→-"]])
        #expect(session.app.rows.map(\.description) == ["1 [ ] eggs", "2 [✓] bread"])
    }

    @Test func refusedChangesReportAndSaveNothing() throws {
        let session = try SeedAppSession<TodoList>()
        try session.refused({ try $0.toggle(number: 1) }, with: .noSuchItem(number: 1, count: 0))
        try session.saved { try $0.add("milk") }
        try session.refused({ try $0.add(" \n ") }, with: .emptyName)
        try session.refused({ try $0.toggle(number: 0) }, with: .noSuchItem(number: 0, count: 1))
        try session.refused({ try $0.delete(number: 2) }, with: .noSuchItem(number: 2, count: 1))
        try session.refused({ try $0.delete(number: Int.min) }, with: .noSuchItem(number: Int.min, count: 1))
        #expect(session.app.rows.map(\.description) == ["1 [ ] milk"])
    }

    /// 200 seeded commands, some with the clock turned back (an item lands among the older
    /// ones), some refused, and relaunches; each batch is checked against the table, a fresh
    /// fetch, and a model of the list kept by the test.
    @Test func aSeededRandomSessionOf200Commands() throws {
        let seed = ReplaySeed("DoneListTests.aSeededRandomSessionOf200Commands")
        let replay = seed.replay
        var random = SplitMix64(seed: seed.value)
        var session = try SeedAppSession<TodoList>()
        // The list as the test expects it: names, done flags and creation dates, oldest first.
        var model: [(name: String, done: Bool, createdAt: Date)] = []

        for step in 0..<200 {
            var roll = Int.random(in: 0..<100, using: &random)
            // An empty list can only be added to (or refuse a change, or be relaunched).
            if model.isEmpty, (40..<90).contains(roll) { roll %= 40 }
            let number = Int.random(in: 1...max(model.count, 1), using: &random)
            switch roll {
            case 0..<40:
                if roll < 8 { session.clock.jump(by: -Double.random(in: 0.5..<Double(step + 2), using: &random)) }
                let (row, batch) = try session.saved { try $0.add("item \(step)") }
                let at = model.firstIndex { $0.createdAt > session.clock.last } ?? model.count
                model.insert((row.name, false, session.clock.last), at: at)
                #expect(batch.summary == ["insert -→[0,\(at)]"], replay)
                #expect(!row.done && row.number == at + 1, replay)
            case 40..<70:
                let (row, batch) = try session.saved { try $0.toggle(number: number) }
                model[number - 1].done.toggle()
                #expect(batch.summary == ["update [0,\(number - 1)]→[0,\(number - 1)]"] && row.done == model[number - 1].done, replay)
            case 70..<90:
                let (row, batch) = try session.saved { try $0.delete(number: number) }
                #expect(batch.summary == ["delete [0,\(number - 1)]→-"] && row.name == model[number - 1].name, replay)
                model.remove(at: number - 1)
            case 90..<95:
                let wrong = model.count + 1 + Int.random(in: 0..<3, using: &random)
                try session.refused({ try $0.toggle(number: wrong) }, with: .noSuchItem(number: wrong, count: model.count))
            default:
                try session.relaunch()
            }
            let rows = session.app.rows
            try #require(rows.map(\.name) == model.map(\.name) && rows.map(\.done) == model.map(\.done),
                         "step \(step): the list shows \(rows), expected \(model); \(replay)")
        }
    }
}
