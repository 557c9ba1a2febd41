import Foundation
import OpenCoreData
import Testing

/// What a save records in the store's persistent history: one transaction per committed save,
/// with its author, context name and changes.
@Suite struct PersistentHistoryRecordingTests {
    @Test(arguments: StoreKind.withPostgres)
    func eachSaveIsOneTransactionWithItsAuthorContextAndChanges(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let start = Date()
        let editor = stack.newContext(author: "app", name: "editor")
        let (brazilID, chileID) = try editor.performAndWait {
            let brazil = Team(context: editor)
            brazil.teamName = "Brazil"
            brazil.qualifyingZone = "CONMEBOL"
            let chile = Team(context: editor)
            chile.teamName = "Chile"
            chile.qualifyingZone = "CONMEBOL"
            let player = Player(context: editor)
            player.name = "Pelé"
            try editor.save()
            return (brazil.objectID, chile.objectID)
        }
        let context = stack.newContext(author: "importer", name: "background")
        try context.performAndWait {
            let team = try #require(try context.existingObject(with: brazilID) as? Team)
            team.wins = 3
            team.imageName = "brazil.png"
            try context.save()
            context.delete(try context.existingObject(with: chileID))
            context.transactionAuthor = nil
            context.name = nil
            try context.save()
        }
        let end = Date()

        let transactions = try stack.transactions()
        try #require(transactions.count == 3)
        #expect(transactions.map(\.author) == ["app", "importer", nil])
        #expect(transactions.map(\.contextName) == ["editor", "background", nil])
        #expect(transactions.map(\.token) == transactions.map(\.token).sorted())
        #expect(transactions.map(\.transactionNumber) == transactions.map(\.transactionNumber).sorted())
        #expect(Set(transactions.map(\.transactionNumber)).count == 3)
        let store = try #require(stack.coordinator.persistentStores.first)
        for transaction in transactions {
            #expect(transaction.storeID == store.identifier)
            #expect(transaction.timestamp >= start.addingTimeInterval(-1) && transaction.timestamp <= end.addingTimeInterval(1))
            #expect(transaction.processID == String(ProcessInfo.processInfo.processIdentifier))
            #expect(!transaction.bundleID.isEmpty)
            for change in transaction.changes ?? [] { #expect(change.transaction === transaction) }
        }
        #expect(transactions.map(\.timestamp) == transactions.map(\.timestamp).sorted())

        #expect(transactions[0].summary.sorted() == ["insert Player", "insert Team", "insert Team"])
        let update = try #require(transactions[1].changes?.first)
        #expect(transactions[1].changes?.count == 1)
        #expect(update.changeType == .update)
        #expect(update.changedObjectID == brazilID)
        #expect(Set(update.updatedProperties?.map(\.name) ?? []) == ["wins", "imageName"])
        #expect(update.tombstone == nil)
        let deletion = try #require(transactions[2].changes?.first)
        #expect(transactions[2].changes?.count == 1)
        #expect(deletion.changeType == .delete)
        #expect(deletion.changedObjectID == chileID)
        #expect(deletion.updatedProperties == nil)
        #expect(try stack.currentToken() == transactions[2].token)
    }

    @Test(arguments: StoreKind.withPostgres)
    func changeIDsIncreaseAndNameEveryInsertedObject(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let context = stack.newContext()
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            let objects = (0..<300).map { number -> ManagedObject in
                    // Interleaved entities of one hierarchy and another: runs of keys break.
                    switch number % 5 {
                    case 0:
                        let employee = Employee(context: context)
                        employee.name = "E\(number)"
                        return employee
                    case 1:
                        let person = Person(context: context)
                        person.name = "P\(number)"
                        return person
                    default:
                        let team = Team(context: context)
                        team.teamName = "T\(number)"
                        team.qualifyingZone = "Z"
                        return team
                    }
            }
            try context.save()
            return objects.map(\.objectID)
        }
        let changes = try #require(try stack.transactions().first?.changes)
        #expect(Set(changes.map(\.changedObjectID)) == Set(ids))
        #expect(changes.count == ids.count)
        #expect(changes.allSatisfy { $0.changeType == .insert })
        #expect(changes.map(\.changeID) == changes.map(\.changeID).sorted())
        #expect(Set(changes.map(\.changeID)).count == changes.count)
        // A later save's changes are numbered after these.
        try stack.insertTeam("Later")
        let later = try #require(try stack.transactions().last?.changes?.first)
        #expect(later.changeID > changes.map(\.changeID).max() ?? .max)
    }

    @Test(arguments: StoreKind.withPostgres)
    func toManyChangesAreUpdatesOfBothEnds(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let teamID = try stack.insertTeam("Brazil")
        let before = try stack.currentToken()
        let context = stack.newContext()
        let playerID = try context.performAndWait { () throws -> ManagedObjectID in
            let team = try #require(try context.existingObject(with: teamID) as? Team)
            let player = Player(context: context)
            player.name = "Ronaldo"
            let club = Club(context: context)
            club.name = "Cruzeiro"
            player.team = team
            player.clubs = [club]
            try context.save()
            return player.objectID
        }
        let transaction = try #require(try stack.transactions(after: before).first)
        let byObject = Dictionary(grouping: transaction.changes ?? [], by: \.changedObjectID)
        let teamChange = try #require(byObject[teamID]?.first)
        #expect(teamChange.changeType == .update)
        #expect(teamChange.updatedProperties?.map(\.name) == ["players"])
        #expect(byObject[playerID]?.first?.changeType == .insert)
        #expect(transaction.summary.sorted() == ["insert Club", "insert Player", "update Team"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func aSaveThatDoesNotCommitRecordsNothing(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let id = try stack.insertTeam("Contested")
        let loser = stack.newContext()
        let held = try loser.performAndWait { try loser.existingObject(with: id) as? Team }
        try stack.save { context in
            (try context.existingObject(with: id) as? Team)?.wins = 1
        }
        let before = try stack.transactions()
        loser.performAndWait {
            held?.wins = 2
            #expect(throws: ObjectGraphError.self) { try loser.save() }
        }
        #expect(try stack.transactions().map(\.token) == before.map(\.token))
        #expect(try stack.currentToken() == before.last?.token)
    }

    /// Attributes marked `preservesValueInHistoryOnDeletion` are kept in deletions' tombstones,
    /// inherited ones included; other attributes and nil values are not.
    @Test(arguments: StoreKind.withPostgres)
    func deletionsKeepTheirPreservedAttributesInTombstones(kind: StoreKind) throws {
        let model = try Fixtures.model()
        model.entitiesByName["Team"]?.attributesByName["teamName"]?.preservesValueInHistoryOnDeletion = true
        model.entitiesByName["Team"]?.attributesByName["imageName"]?.preservesValueInHistoryOnDeletion = true
        model.entitiesByName["Person"]?.attributesByName["name"]?.preservesValueInHistoryOnDeletion = true
        let stack = try HistoryStack(kind, model: model)
        let context = stack.newContext()
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            let team = Team(context: context)
            team.teamName = "Brazil"
            team.qualifyingZone = "CONMEBOL"
            team.wins = 5
            let player = Player(context: context)
            player.name = "Pelé"
            player.team = team
            let employee = Employee(context: context)
            employee.name = "Ada"
            employee.salary = 10
            try context.save()
            return [team.objectID, player.objectID, employee.objectID]
        }
        let before = try stack.currentToken()
        try stack.save { context in
            for id in [ids[0], ids[2]] { context.delete(try context.existingObject(with: id)) }
        }
        let changes = try #require(try stack.transactions(after: before).first?.changes)
        let byObject = Dictionary(uniqueKeysWithValues: changes.map { ($0.changedObjectID, $0) })
        #expect(changes.allSatisfy { $0.changeType == .delete })
        // The team (imageName nil: left out), its player by cascade (nothing preserved), the employee.
        let team = try #require(byObject[ids[0]]?.tombstone)
        #expect(team.count == 1)
        #expect(team["teamName"] as? String == "Brazil")
        #expect(byObject[ids[1]]?.tombstone?.isEmpty == true)
        #expect(byObject[ids[2]]?.tombstone?["name"] as? String == "Ada")
        #expect(byObject[ids[2]]?.tombstone?.count == 1)
        // Inserts and updates have none.
        let insert = try #require(try stack.transactions().first?.changes?.first)
        #expect(insert.tombstone == nil)
    }

    @Test(arguments: StoreKind.withPostgres)
    func tombstonesKeepEveryAttributeType(kind: StoreKind) throws {
        let model = try Fixtures.model()
        let sample = try #require(model.entitiesByName["Sample"])
        for attribute in sample.attributesByName.values { attribute.preservesValueInHistoryOnDeletion = true }
        let stack = try HistoryStack(kind, model: model)
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.5)
        let url = try #require(URL(string: "https://example.com/a"))
        let context = stack.newContext()
        let id = try context.performAndWait { () throws -> ManagedObjectID in
            let object = Sample(context: context)
            object.int16 = -16
            object.int32 = 32
            object.int64 = 1 << 40
            object.int = 7
            object.double = 2.5
            object.float = 1.25
            object.decimal = Decimal(string: "12.345") ?? 0
            object.string = "text"
            object.bool = true
            object.date = date
            object.data = Data([1, 2, 3])
            object.uuid = uuid
            object.url = url
            try context.save()
            return object.objectID
        }
        try stack.save { context in context.delete(try context.existingObject(with: id)) }
        let tombstone = try #require(try stack.transactions().last?.changes?.first?.tombstone)
        #expect((tombstone["int16"] as? NSNumber)?.int16Value == -16)
        #expect((tombstone["int32"] as? NSNumber)?.int32Value == 32)
        #expect((tombstone["int64"] as? NSNumber)?.int64Value == 1 << 40)
        #expect((tombstone["int"] as? NSNumber)?.intValue == 7)
        #expect((tombstone["double"] as? NSNumber)?.doubleValue == 2.5)
        #expect((tombstone["float"] as? NSNumber)?.floatValue == 1.25)
        #expect((tombstone["decimal"] as? NSDecimalNumber)?.decimalValue == Decimal(string: "12.345"))
        #expect(tombstone["string"] as? String == "text")
        #expect((tombstone["bool"] as? NSNumber)?.boolValue == true)
        #expect(tombstone["date"] as? Date == date)
        #expect(tombstone["data"] as? Data == Data([1, 2, 3]))
        #expect(tombstone["uuid"] as? UUID == uuid)
        #expect(tombstone["url"] as? URL == url)
        #expect(tombstone.count == 13)
    }

    @Test func historyIsOnByDefaultForSQLiteAndOffForMemory() throws {
        let sqlite = PersistentStoreDescription(url: URL(fileURLWithPath: "/tmp/x.sqlite"))
        #expect(sqlite.isPersistentHistoryTrackingEnabled)
        let memory = PersistentStoreDescription()
        memory.type = InMemoryStoreType
        #expect(!memory.isPersistentHistoryTrackingEnabled)
        // Core Data code passes NSNumber.
        sqlite.setOption(NSNumber(value: false), forKey: PersistentHistoryTrackingKey)
        #expect(!sqlite.isPersistentHistoryTrackingEnabled)
        memory.setOption(NSNumber(value: true), forKey: PersistentHistoryTrackingKey)
        #expect(memory.isPersistentHistoryTrackingEnabled)
        #expect(!sqlite.postsPersistentStoreRemoteChangeNotifications)
        sqlite.setOption(true, forKey: PersistentStoreRemoteChangeNotificationPostOptionKey)
        #expect(sqlite.postsPersistentStoreRemoteChangeNotifications)
        #expect(sqlite.persistentHistoryRetention == .standard)

        // A default container records on SQLite, and says why it cannot on memory.
        let directory = TemporaryDirectory()
        let onDisk = try TestStack(.sqlite, directory: directory)
        #expect(try onDisk.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil) != nil)
        let inMemory = try TestStack(.inMemory)
        #expect(try inMemory.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil) == nil)
        let context = inMemory.newContext()
        let error = historyError {
            _ = try context.performAndWait { try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)) }
        }
        #expect(error?.code == PersistentHistoryError.historyUnavailable)
    }
}
