#if Postgres
import Dispatch
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// Optimistic locking and uniqueness constraints on PostgreSQL: the same races on two
/// coordinators, resolved by each merge policy, leave the same rows and errors as on SQLite.
@Suite struct PostgresConflictTests {
    static let policies: [(name: String, policy: MergePolicy)] = [
        ("error", .error), ("objectTrump", .mergeByPropertyObjectTrump), ("storeTrump", .mergeByPropertyStoreTrump),
        ("overwrite", .overwrite), ("rollback", .rollback),
    ]

    /// The outcome of a race on one store kind: the second save's error and the rows after.
    struct Outcome: Equatable, CustomStringConvertible {
        var error: String
        var rows: [String]
        var description: String { "\(error): \(rows)" }
    }

    /// Two contexts on two coordinators read a node at version 1; the first changes some values
    /// and saves, the second changes others (one the same) and saves under `policy`.
    private func versionRace(_ kind: SaveTestStore.Kind, policy: MergePolicy) throws -> Outcome {
        let store = try SaveTestStore(kind)
        let first = try store.container().newBackgroundContext()
        let secondContainer = try store.container()
        let second = secondContainer.newBackgroundContext()
        second.mergePolicy = policy
        let ids = try first.performAndWait {
            let nodes = try (0..<2).map { index -> ManagedObject in
                let node = try EntityDescription.insertNewObject(forEntityName: "Node", into: first)
                node.setValue("n\(index)", forKey: "label")
                node.setValue(Int32(1), forKey: "medium")
                return node
            }
            try first.save()
            return nodes.map(\.objectID)
        }
        let held = try second.performAndWait { try ids.map { try second.existingObject(with: $0) } }
        try first.performAndWait {
            let node = try first.existingObject(with: ids[0])
            node.setValue(Int32(2), forKey: "medium")
            node.setValue("first", forKey: "text")
            try first.delete(first.existingObject(with: ids[1]))
            try first.save()
        }
        let error = second.performAndWait { () -> (any Error)? in
            held[0].setValue(Int32(3), forKey: "medium")
            held[0].setValue(Int64(3), forKey: "large")
            held[1].setValue("edited after its deletion", forKey: "text")
            return second.saveCatching()
        }
        return Outcome(error: errorSummary(error), rows: dump(ids, in: try store.container()))
    }

    @Test(arguments: policies.map(\.name))
    func versionConflictsResolveAsOnSQLite(policyName: String) throws {
        let policy = try #require(Self.policies.first { $0.name == policyName }?.policy)
        let sqlite = try versionRace(.sqlite, policy: policy)
        let postgres = try versionRace(.postgres, policy: policy)
        #expect(postgres == sqlite)
        // The race did conflict: the second save's values are not simply written.
        if policyName == "error" {
            #expect(postgres.error == "ObjectGraphError \(ObjectGraphError.mergeConflict)")
        }
        #expect(postgres.rows[0].contains("medium=int 2") || postgres.rows[0].contains("medium=int 3"))
    }

    /// Saves on several backends at once, each changing the same row from the same version:
    /// the pre-images are locked `FOR UPDATE`, so exactly one commits in each round and the
    /// others report the conflict with the row it wrote (without the lock, two could read the
    /// version, pass the check and both write).
    @Test func concurrentSavesOfOneRowCommitOnce() throws {
        let store = try SaveTestStore(.postgres)
        let containers = try (0..<4).map { _ in try store.container() }
        let stores = try containers.map { try #require($0.persistentStoreCoordinator.persistentStores.first) }
        let node = try #require(containers[0].managedObjectModel.entitiesByName["Node"])
        let labelSlot = try #require(node.propertiesByName["label"]).slot
        let key = try #require(try stores[0].backend.allocatePrimaryKeys(for: node, count: 1).first)
        let id = ManagedObjectID(entity: node, storeIdentifier: stores[0].identifier, primaryKey: key)
        var values = [PropertyValue](repeating: .null, count: node.slots.count)
        values[labelSlot] = .string("start")
        var insert = SaveRequest()
        insert.inserted = [RowSnapshot(objectID: id, values: values, version: 1)]
        _ = try stores[0].backend.save(insert)
        let startValues = values
        for round in 1...20 {
            let outcomes = Collected<String>()
            DispatchQueue.concurrentPerform(iterations: stores.count) { writer in
                var changed = startValues
                changed[labelSlot] = .string("round \(round) writer \(writer)")
                var request = SaveRequest()
                request.updated = [RowUpdate(snapshot: RowSnapshot(objectID: id, values: changed, version: Int64(round)),
                                             changedSlots: [labelSlot], expectedVersion: Int64(round))]
                switch try? stores[writer].backend.save(request) {
                case .committed: outcomes.append("committed")
                case .conflicts(let conflicts) where conflicts.first?.current?.version == Int64(round + 1):
                    outcomes.append("conflict")
                default: outcomes.append("other")
                }
            }
            #expect(outcomes.values.sorted() == ["committed", "conflict", "conflict", "conflict"], "round \(round)")
        }
        #expect(try stores[0].backend.snapshots(for: [id]).first?.version == 21)
    }

    /// A second coordinator inserts an object claiming a code the first saved, and changes a
    /// stored object's code to another stored one, under `policy`.
    private func constraintRace(_ kind: SaveTestStore.Kind, policy: MergePolicy) throws -> Outcome {
        let store = try SaveTestStore(kind)
        let first = try store.container().newBackgroundContext()
        let second = try store.container().newBackgroundContext()
        second.mergePolicy = policy
        var ids = try first.performAndWait {
            let objects = try (1...2).map { code -> ManagedObject in
                let object = try EntityDescription.insertNewObject(forEntityName: "Keyed", into: first)
                object.setValue("stored\(code)", forKey: "label")
                object.setValue(Int32(code), forKey: "code")
                object.setValue("first", forKey: "value")
                return object
            }
            try first.save()
            return objects.map(\.objectID)
        }
        let (error, newID) = try second.performAndWait { () throws -> ((any Error)?, ManagedObjectID) in
            let claimant = try EntityDescription.insertNewObject(forEntityName: "Keyed", into: second)
            claimant.setValue("claimant", forKey: "label")
            claimant.setValue(Int32(1), forKey: "code")
            claimant.setValue("second", forKey: "value")
            let error = second.saveCatching()
            return (error, claimant.objectID)
        }
        ids.append(newID)
        return Outcome(error: errorSummary(error), rows: dump(ids, in: try store.container()))
    }

    @Test(arguments: policies.map(\.name))
    func constraintConflictsResolveAsOnSQLite(policyName: String) throws {
        let policy = try #require(Self.policies.first { $0.name == policyName }?.policy)
        let sqlite = try constraintRace(.sqlite, policy: policy)
        let postgres = try constraintRace(.postgres, policy: policy)
        #expect(postgres == sqlite)
        if policyName == "error" {
            #expect(postgres.error == "ObjectGraphError \(ObjectGraphError.constraintConflict)")
        }
    }

    /// Another session inserts a row with the code a save claims and commits only after the
    /// save's constraint check passed: the save's INSERT waits on the unique index, fails with
    /// `23505`, runs again, and the merge policy resolves the conflict as it does when the row
    /// was there first (here the error policy reports it; object trump overwrites the row).
    @Test(arguments: ["error", "objectTrump"])
    func uniqueViolationFromAConcurrentWriterBecomesAConstraintConflict(policyName: String) throws {
        let policy = try #require(Self.policies.first { $0.name == policyName }?.policy)
        let store = try SaveTestStore(.postgres)
        let schema = try store.postgresSchema
        let context = try store.container().newBackgroundContext()
        context.mergePolicy = policy
        let code = try schema.entityCode("Keyed")
        let table = schema.qualified("Keyed")
        let inserted = DispatchSemaphore(value: 0)
        let saveStarted = DispatchSemaphore(value: 0)
        let committed = Collected<Bool>()
        let finished = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { finished.signal() }
            _ = try? schema.admin.withConnection { connection in
                try connection.transaction {
                    try connection.execute("""
                        INSERT INTO \(table) ("_pk", "_entity", "_version", "label", "code", "value")
                        VALUES (nextval('\(schema.name)."_ocd_pk_Keyed"'), \(code), 1, 'other session', 7, 'theirs')
                        """)
                    inserted.signal()
                    saveStarted.wait()
                    // Long enough for the save to reach its INSERT and wait on the index.
                    Thread.sleep(forTimeInterval: 0.5)
                }
                committed.append(true)
            }
        }
        writer.start()
        inserted.wait()
        let error = context.performAndWait { () -> (any Error)? in
            let object = try? EntityDescription.insertNewObject(forEntityName: "Keyed", into: context)
            object?.setValue("mine", forKey: "label")
            object?.setValue(Int32(7), forKey: "code")
            object?.setValue("ours", forKey: "value")
            saveStarted.signal()
            return context.saveCatching()
        }
        // The save returns once it has seen the other session's commit, which may be before the
        // writer thread has recorded it.
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(committed.values == [true])
        let rows = try schema.rows("SELECT \"label\" || ' ' || \"value\" FROM \(table) WHERE \"code\" = 7")
        if policyName == "error" {
            #expect(errorSummary(error) == "ObjectGraphError \(ObjectGraphError.constraintConflict)")
            #expect(rows == ["other session theirs"])
        } else {
            #expect(error == nil)
            #expect(rows.count == 1)
            #expect(rows.first?.hasSuffix(" ours") == true)
        }
    }
}
#endif
