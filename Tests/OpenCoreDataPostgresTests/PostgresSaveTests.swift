#if Postgres
import Dispatch
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// Saving to PostgreSQL and reading the rows back by ID, through contexts on separate
/// containers (each its own coordinator and backend), each test on a schema of its own.
@Suite struct PostgresSaveTests {
    /// Objects with a value of every type from ``SaveModelValues/table`` (extremes, sub-second
    /// dates, long decimals, unicode, binary), a to-one, its inverse to-many and a join-table
    /// to-many are inserted, updated and deleted over two saves; a second container reads
    /// every one back by ID exactly as the writing context holds it.
    /// `count` new nodes named `n0`, `n1`, …, row `i` holding the `i`th value (cycling) of every
    /// column of ``SaveModelValues/table``. Call it on the context's queue.
    private static func insertNodes(_ count: Int, into context: ManagedObjectContext) throws -> [ManagedObject] {
        try (0..<count).map { row -> ManagedObject in
            let node = try EntityDescription.insertNewObject(forEntityName: "Node", into: context)
            node.setValue("n\(row)", forKey: "label")
            for (name, values) in SaveModelValues.table {
                node.setValue(values[row % values.count], forKey: name)
            }
            return node
        }
    }

    @Test func everyValueAndRelationshipRoundTrips() throws {
        let store = try SaveTestStore(.postgres)
        let writer = try store.container().newBackgroundContext()
        let rowCount = SaveModelValues.table.values.map(\.count).max() ?? 0
        let ids = try writer.performAndWait { () throws -> [ManagedObjectID] in
            let nodes = try Self.insertNodes(rowCount, into: writer)
            nodes[0].setValue(nodes[1], forKey: "parent")
            nodes[2].setValue(nodes[1], forKey: "parent")
            nodes[0].setValue(Set([nodes[2], nodes[3], nodes[4]]), forKey: "links")
            nodes[6].setValue(Set([nodes[4], nodes[3]]), forKey: "links")
            try writer.save()
            // Updates of every kind of column, a moved to-one, links added and removed, and a
            // deletion whose links and children go with it.
            nodes[1].setValue("changed \u{1F600}", forKey: "text")
            nodes[1].setValue(nil, forKey: "amount")
            nodes[1].setValue(Int64.min, forKey: "large")
            nodes[2].setValue(nodes[0], forKey: "parent")
            nodes[0].setValue(Set([nodes[2], nodes[5]]), forKey: "links")
            nodes[5].setValue(Set([nodes[3]]), forKey: "links")
            writer.delete(nodes[4])
            try writer.save()
            let ids = nodes.map(\.objectID)
            #expect(ids.allSatisfy { !$0.isTemporaryID })
            return ids
        }
        // Each save advanced the generation by one.
        let generations = try store.container().persistentStoreCoordinator.persistentStores.map { try $0.backend.generation() }
        #expect(generations == [2])
        let written = dump(ids, in: try store.container())
        // What the writing context holds, as the dump reads it, but for the deleted node.
        let held = writer.performAndWait {
            ids.map { id -> String in
                guard let object = try? writer.existingObject(with: id), !object.isDeleted else { return "absent" }
                return describe(object)
            }
        }
        #expect(written == held)
        // The deleted node left the links that pointed to it; -0.0 is stored as 0.0, as SQLite
        // stores it.
        #expect(written[6].contains("links=[\"n3\"]"))
        #expect(written[6].contains("score=double 0 "))
        #expect(written[4] == "absent")
        #expect(written[0].contains("links=[\"n2\", \"n5\"]"))
        #expect(written[1].contains("children=[\"n0\"]"))
        #expect(written[1].contains("text=string changed \u{1F600}"))
    }

    /// Many rows changing the same columns are one `UPDATE … FROM unnest` per column set: every
    /// value of every type (NULLs included), a moved to-one and a label alone, read back by
    /// another container as the writing context holds them.
    @Test func rowsChangingTheSameColumnsRoundTripThroughOneStatement() throws {
        let store = try SaveTestStore(.postgres)
        let writer = try store.container().newBackgroundContext()
        let rowCount = max(SaveModelValues.table.values.map(\.count).max() ?? 0, 12)
        let ids = try writer.performAndWait { () throws -> [ManagedObjectID] in
            let nodes = try Self.insertNodes(rowCount, into: writer)
            try writer.save()
            // Even rows: every attribute moves to the next row's values, and a new parent. Odd
            // rows: the label alone. Two column sets, so two statements.
            for (row, node) in nodes.enumerated() {
                if row % 2 == 0 {
                    for (name, values) in SaveModelValues.table {
                        node.setValue(values[(row + 1) % values.count], forKey: name)
                    }
                    node.setValue(nodes[(row + 1) % rowCount], forKey: "parent")
                } else {
                    node.setValue("renamed \(row)", forKey: "label")
                }
            }
            try writer.save()
            return nodes.map(\.objectID)
        }
        let written = dump(ids, in: try store.container())
        let held = writer.performAndWait { ids.map { id in (try? writer.existingObject(with: id)).map(describe) ?? "absent" } }
        #expect(written == held)
        #expect(written[1].contains("label=string renamed 1"))
    }

    /// A save of more rows than one INSERT takes parameters for (5,000 rows of 15 values)
    /// writes them in several statements, each row with its own key and values.
    @Test func largeInsertIsSplitIntoStatements() throws {
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let context = try store.container().newBackgroundContext()
        let ids = try context.performAndWait {
            let nodes = try (0..<5_000).map { index -> ManagedObject in
                let node = try EntityDescription.insertNewObject(forEntityName: "Node", into: context)
                node.setValue("n\(index)", forKey: "label")
                node.setValue(Int64(index), forKey: "large")
                node.setValue(index.isMultiple(of: 2) ? nil : "text \(index)", forKey: "text")
                return node
            }
            try context.save()
            return nodes.map(\.objectID)
        }
        #expect(try schema.rows("SELECT count(*)::text || ' ' || count(DISTINCT \"_pk\")::text || ' ' || count(\"text\")::text FROM \(schema.qualified("Node")) WHERE \"label\" = 'n' || \"large\"")
            == ["5000 5000 2500"])
        let rows = dump([ids[0], ids[4_999]], in: try store.container())
        #expect(rows[0].contains("label=string n0 ") && rows[0].contains("text=nil"))
        #expect(rows[1].contains("label=string n4999 ") && rows[1].contains("text=string text 4999"))
    }

    /// NaN (which contexts refuse, but a store may be handed) is stored as NULL, as SQLite
    /// stores it; the other values of the same row are kept.
    @Test(arguments: SaveTestStore.Kind.allCases)
    func nanIsStoredAsNull(kind: SaveTestStore.Kind) throws {
        let store = try SaveTestStore(kind)
        let container = try store.container()
        let persistentStore = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let backend = persistentStore.backend
        let node = try #require(container.managedObjectModel.entitiesByName["Node"])
        let key = try #require(try backend.allocatePrimaryKeys(for: node, count: 1).first)
        let id = ManagedObjectID(entity: node, storeIdentifier: persistentStore.identifier, primaryKey: key)
        var values = [PropertyValue](repeating: .null, count: node.slots.count)
        let slot = { (name: String) in try #require(node.propertiesByName[name]).slot }
        values[try slot("label")] = .string("nan")
        values[try slot("score")] = .double(.nan)
        values[try slot("ratio")] = .double(-.nan)
        values[try slot("when")] = .date(Date(timeIntervalSinceReferenceDate: .nan))
        values[try slot("medium")] = .integer(5)
        var request = SaveRequest()
        request.inserted = [RowSnapshot(objectID: id, values: values, version: 1)]
        guard case .committed = try backend.save(request) else {
            Issue.record("the save was not committed")
            return
        }
        let read = try #require(try backend.snapshots(for: [id]).first)
        #expect(read.value(at: try slot("score")).isNull)
        #expect(read.value(at: try slot("ratio")).isNull)
        #expect(read.value(at: try slot("when")).isNull)
        #expect(read.value(at: try slot("medium")) == .integer(5))
        #expect(read.value(at: try slot("label")) == .string("nan"))
    }

    /// A string holding U+0000 cannot be stored in PostgreSQL's text. Contexts refuse it when it
    /// is assigned; a save that reaches the store with one anyway (in a new row or a changed
    /// one) throws an error naming the object and the attribute, and nothing of it is written
    /// (neither its other rows nor the generation).
    @Test(arguments: ["label", "text"])
    func nullCharacterIsRefusedAndNothingWritten(attribute: String) throws {
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let container = try store.container()
        let persistentStore = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let backend = persistentStore.backend
        let node = try #require(container.managedObjectModel.entitiesByName["Node"])
        let slot = try #require(node.propertiesByName[attribute]).slot
        let labelSlot = try #require(node.propertiesByName["label"]).slot
        func row(_ label: String) throws -> RowSnapshot {
            let key = try #require(try backend.allocatePrimaryKeys(for: node, count: 1).first)
            var values = [PropertyValue](repeating: .null, count: node.slots.count)
            values[labelSlot] = .string(label)
            return RowSnapshot(objectID: ManagedObjectID(entity: node, storeIdentifier: persistentStore.identifier, primaryKey: key),
                               values: values, version: 1)
        }
        var kept = SaveRequest()
        kept.inserted = [try row("kept")]
        _ = try backend.save(kept)
        let generation = try backend.generation()

        var insert = SaveRequest()
        var refused = try row("refused")
        refused.values[slot] = .string("a\u{0}b")
        insert.inserted = [try row("other"), refused]
        var update = SaveRequest()
        var changed = kept.inserted[0]
        changed.values[slot] = .string("\u{0}")
        update.updated = [RowUpdate(snapshot: changed, changedSlots: [slot], expectedVersion: 1)]
        for request in [insert, update] {
            #expect {
                _ = try backend.save(request)
            } throws: { error in
                let error = error as? PersistentStoreError
                return error?.code == PersistentStoreError.saveFailed && error?.message.contains("Node.\(attribute)") == true
                    && error?.message.contains("U+0000") == true
            }
        }
        #expect(try backend.generation() == generation)
        #expect(try schema.rows("SELECT \"label\" || ' ' || \"_version\" FROM \(schema.qualified("Node"))") == ["kept 1"])
    }

    /// Two backends of one store reserving keys and saving new objects at once, from several
    /// threads, never get the same key.
    @Test func keysFromTwoBackendsNeverCollide() throws {
        let store = try SaveTestStore(.postgres)
        let containers = try [store.container(), store.container()]
        let keys = Collected<Int64>()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let container = containers[worker % 2]
            guard let node = container.managedObjectModel.entitiesByName["Node"],
                  let backend = container.persistentStoreCoordinator.persistentStores.first?.backend else { return }
            if worker < 4 {
                for _ in 0..<25 {
                    for key in (try? backend.allocatePrimaryKeys(for: node, count: 7)) ?? [] { keys.append(key) }
                }
            } else {
                let context = container.newBackgroundContext()
                context.performAndWait {
                    for round in 0..<5 {
                        let nodes = (0..<10).compactMap { _ in try? EntityDescription.insertNewObject(forEntityName: "Node", into: context) }
                        for node in nodes { node.setValue("w\(worker)r\(round)", forKey: "label") }
                        try? context.save()
                        for node in nodes where !node.objectID.isTemporaryID { keys.append(node.objectID.key) }
                    }
                }
            }
        }
        #expect(keys.values.count == 4 * 25 * 7 + 4 * 5 * 10)
        #expect(Set(keys.values).count == keys.values.count)
    }

    /// A read-only store's connections start with `default_transaction_read_only` on: the server
    /// refuses any write they make, with the read-only error; the backend refuses saves and
    /// history changes before they reach it; reads work.
    @Test func readOnlyStoreRefusesWrites() throws {
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let container = try store.container()
        try PostgresHistoryTests.save("kept", in: container)
        let model = container.managedObjectModel
        let description = try schema.description()
        description.isReadOnly = true
        let backend = try PostgresStoreBackend(description: description)
        defer { backend.close() }
        _ = try backend.load(model: model)
        let isReadOnly: @Sendable (any Error) -> Bool = { ($0 as? PersistentStoreError)?.code == PersistentStoreError.readOnly }

        #expect(try backend.pool.query("SHOW default_transaction_read_only").first?.decode(String.self) == "on")
        #expect {
            _ = try backend.pool.query(PostgresQuery(unsafeSQL: "UPDATE \(schema.qualified("Node")) SET \"text\" = 'written'"))
        } throws: { isReadOnly($0) }
        let node = try #require(model.entitiesByName["Node"])
        #expect { _ = try backend.allocatePrimaryKeys(for: node, count: 1) } throws: { isReadOnly($0) }
        let stored = try #require(try backend.fetchHistory(from: .beginning, includingChanges: true).first?.changes.first?.objectID)
        let snapshot = try #require(try backend.snapshots(for: [stored]).first)
        var request = SaveRequest()
        request.updated = [RowUpdate(snapshot: snapshot, changedSlots: [], expectedVersion: snapshot.version)]
        #expect { _ = try backend.save(request) } throws: { isReadOnly($0) }
        #expect { _ = try backend.deleteHistory(.beforeTransaction(10)) } throws: { isReadOnly($0) }
        #expect(try schema.rows("SELECT count(*)::text FROM \(schema.qualified("Node")) WHERE \"text\" IS NULL") == ["1"])
        #expect(try backend.generation() == 1)
        #expect(try backend.fetchHistory(from: .beginning, includingChanges: false).count == 1)
    }
}

#endif
