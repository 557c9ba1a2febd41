import Foundation
import GRDB
@testable import OpenCoreData
import Testing

/// Constraints added to and removed from an existing SQLite store: the store makes and drops
/// unique indexes when it opens, refuses (and leaves untouched) a store whose rows already break
/// a new constraint, and widens a subentity's index when an entity joins below it.
@Suite struct ConstraintMigrationTests {
    /// `Member(email, name)`, with `Senior` below it, and optionally `Honorary` below `Senior`.
    private func clubModel(memberConstraints: [[String]] = [], seniorConstraints: [[String]] = [],
                           withHonorary: Bool = false) -> ManagedObjectModel {
        let member = EntityDescription(name: "Member")
        member.properties = [AttributeDescription(name: "email", type: .string), AttributeDescription(name: "name", type: .string)]
        member.uniquenessConstraints = memberConstraints
        let senior = EntityDescription(name: "Senior")
        senior.properties = [AttributeDescription(name: "level", type: .integer16, defaultValue: 0)]
        senior.uniquenessConstraints = seniorConstraints
        member.subentities = [senior]
        var entities = [member, senior]
        if withHonorary {
            let honorary = EntityDescription(name: "Honorary")
            senior.subentities = [honorary]
            entities.append(honorary)
        }
        return ManagedObjectModel(entities: entities)
    }

    private func open(_ directory: TemporaryDirectory, _ model: ManagedObjectModel,
                      configure: (PersistentStoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Club", managedObjectModel: model)
        let description = PersistentStoreDescription(url: directory.file("Club.sqlite"))
        configure(description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    private func close(_ container: PersistentContainer) throws {
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }
    }

    private func insert(_ members: [(entity: String, email: String?, name: String)], into container: PersistentContainer,
                        policy: MergePolicy = .error) throws {
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        try context.performAndWait {
            for member in members {
                let object = try EntityDescription.insertNewObject(forEntityName: member.entity, into: context)
                object.setValue(member.email, forKey: "email")
                object.setValue(member.name, forKey: "name")
            }
            try context.save()
        }
    }

    private func names(in container: PersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Member")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        }
    }

    private func uniqueIndexes(_ directory: TemporaryDirectory) throws -> [String: String] {
        let queue = try DatabaseQueue(path: directory.file("Club.sqlite").path)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE '_ocd_unique_%'")
                .map { ($0["name"] as String, $0["sql"] as String) })
        }
    }

    @Test func addingAConstraintMakesItsIndexAndEnforcesIt() throws {
        let directory = TemporaryDirectory()
        let v1 = try open(directory, clubModel())
        try insert([("Member", "a@x", "Ann"), ("Senior", "b@x", "Ben"), ("Member", nil, "Cy"), ("Member", nil, "Di")], into: v1)
        try close(v1)
        #expect(try uniqueIndexes(directory).isEmpty)

        let v2 = try open(directory, clubModel(memberConstraints: [["email"]]))
        #expect(try uniqueIndexes(directory).keys.sorted() == ["_ocd_unique_Member_email"])
        #expect(try names(in: v2) == ["Ann", "Ben", "Cy", "Di"])
        // Enforced for the root entity and its subentity alike.
        let error = #expect(throws: ObjectGraphError.self) { try insert([("Senior", "a@x", "Ann again")], into: v2) }
        #expect(error?.code == ObjectGraphError.constraintConflict)
        try insert([("Member", "b@x", "Ben again")], into: v2, policy: .mergeByPropertyObjectTrump)
        #expect(try names(in: v2) == ["Ann", "Ben again", "Cy", "Di"])
        try close(v2)

        // Another program writing a duplicate into the file is stopped by the index.
        let queue = try DatabaseQueue(path: directory.file("Club.sqlite").path)
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: #"UPDATE "Member" SET "email" = 'a@x' WHERE "name" = 'Cy'"#) }
        }
        try queue.close()
    }

    @Test func addingAConstraintThatStoredRowsBreakIsRefusedAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let v1 = try open(directory, clubModel())
        try insert([("Member", "a@x", "Ann"), ("Senior", "a@x", "Anna"), ("Member", "b@x", "Ben"), ("Member", nil, "Cy")], into: v1)
        try close(v1)

        let error = #expect(throws: PersistentStoreError.self) { _ = try open(directory, clubModel(memberConstraints: [["email"], ["name"]])) }
        #expect(error?.code == PersistentStoreError.migrationConstraintViolation)
        let message = error?.message ?? ""
        for mention in ["Member(email)", "email = \"a@x\"", "2 stored Member objects", "not changed"] {
            #expect(message.contains(mention), "\(message) does not mention \(mention)")
        }
        #expect(try uniqueIndexes(directory).isEmpty)
        // The old model still opens the store, with every row.
        let again = try open(directory, clubModel())
        #expect(try names(in: again) == ["Ann", "Anna", "Ben", "Cy"])
    }

    @Test func removingAConstraintDropsItsIndex() throws {
        let directory = TemporaryDirectory()
        let v2 = try open(directory, clubModel(memberConstraints: [["email"]]))
        try insert([("Member", "a@x", "Ann")], into: v2)
        try close(v2)
        let v1 = try open(directory, clubModel())
        #expect(try uniqueIndexes(directory).isEmpty)
        try insert([("Member", "a@x", "Ann again")], into: v1)
        #expect(try names(in: v1) == ["Ann", "Ann again"])
    }

    @Test func aSubentitysIndexCoversTheEntitiesBelowIt() throws {
        let directory = TemporaryDirectory()
        let v1 = try open(directory, clubModel(seniorConstraints: [["email"]]))
        try insert([("Member", "a@x", "Ann"), ("Member", "a@x", "Ann too"), ("Senior", "a@x", "Anna")], into: v1)
        let narrow = try #require(try uniqueIndexes(directory)["_ocd_unique_Senior_email"])
        #expect(narrow.contains("WHERE \"_entity\" IN ("))
        try close(v1)

        let v2 = try open(directory, clubModel(seniorConstraints: [["email"]], withHonorary: true))
        let wide = try #require(try uniqueIndexes(directory)["_ocd_unique_Senior_email"])
        #expect(wide != narrow)
        let error = #expect(throws: ObjectGraphError.self) { try insert([("Honorary", "a@x", "Anne")], into: v2) }
        #expect(error?.constraintConflicts.first?.entityName == "Senior")
        try insert([("Member", "a@x", "Ann three")], into: v2)
    }

    @Test func aStoreThatMayNotMigrateRefusesAChangedConstraint() throws {
        let directory = TemporaryDirectory()
        let v1 = try open(directory, clubModel())
        try insert([("Member", "a@x", "Ann")], into: v1)
        try close(v1)
        for configure: (PersistentStoreDescription) -> Void in [{ $0.isReadOnly = true }, { $0.shouldMigrateStoreAutomatically = false }] {
            let error = #expect(throws: PersistentStoreError.self) {
                _ = try open(directory, clubModel(memberConstraints: [["email"]]), configure: configure)
            }
            #expect(error?.code == PersistentStoreError.incompatibleModel)
            #expect(error?.message.contains("addUniquenessConstraint") == true)
        }
    }
}
