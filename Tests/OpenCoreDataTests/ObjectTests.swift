import Foundation
import OpenCoreData
import Testing

@Suite struct ObjectTests {
    @Test func everyAttributeTypeSurvivesAReopen() throws {
        let stack = try TestStack(.sqlite)
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        let decimal = Decimal(string: "12345678901234567890.123456789")!
        let context = stack.newContext()
        try context.performAndWait {
            let sample = Sample(context: context)
            sample.int16 = .min
            sample.int32 = .max
            sample.int64 = .min
            sample.int = 42
            sample.double = -0.5
            sample.float = 3.25
            sample.decimal = decimal
            sample.string = "naïve café 🇧🇷"
            sample.bool = true
            sample.date = date
            sample.data = Data([0, 1, 2, 255])
            sample.uuid = uuid
            sample.url = URL(string: "https://example.com/a?b=c")
            _ = Sample(context: context)   // every optional left nil
            try context.save()
        }
        let reopened = try stack.reopened()
        let other = reopened.newContext()
        try other.performAndWait {
            let samples = try other.all(Sample.self)
            #expect(samples.count == 2)
            let full = try #require(samples.first { $0.string != nil })
            #expect(full.int16 == .min)
            #expect(full.int32 == .max)
            #expect(full.int64 == .min)
            #expect(full.int == 42)
            #expect(full.double == -0.5)
            #expect(full.float == 3.25)
            #expect(full.decimal == decimal)
            #expect(full.string == "naïve café 🇧🇷")
            #expect(full.bool)
            #expect(full.date == date)
            #expect(full.data == Data([0, 1, 2, 255]))
            #expect(full.uuid == uuid)
            #expect(full.url == URL(string: "https://example.com/a?b=c"))
            let empty = try #require(samples.first { $0.string == nil })
            #expect(empty.date == nil && empty.data == nil && empty.uuid == nil && empty.url == nil)
            #expect(empty.int16 == 0 && !empty.bool)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func defaultsAndAwakeFromInsert(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let car = CDCar(context: context)
            let item = Item(context: context)
            item.name = "milk"
            #expect(car.year == 1908)
            #expect(car.dateCreated != nil)
            #expect(item.done == false)
            try context.save()
            #expect(try context.all(CDCar.self).first?.year == 1908)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func identityMapGivesOneObjectPerID(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Chile"
            team.qualifyingZone = "CONMEBOL"
            try context.save()
            let first = try context.all(Team.self)
            let second = try context.all(Team.self)
            #expect(first[0] === second[0])
            #expect(context.object(with: team.objectID) === team)
            #expect(try context.existingObject(with: team.objectID) === team)
        }
    }

    @Test func objectIDsTurnPermanentAndRoundTripThroughURIs() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Peru"
            team.qualifyingZone = "CONMEBOL"
            let temporary = team.objectID
            #expect(temporary.isTemporaryID)
            #expect(temporary.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Team/t"))
            try context.save()
            let permanent = team.objectID
            #expect(!permanent.isTemporaryID)
            #expect(permanent != temporary)
            let store = try #require(stack.container.persistentStoreCoordinator.persistentStores.first)
            #expect(permanent.uriRepresentation().absoluteString == "x-coredata://\(store.identifier)/Team/p1")
            let coordinator = stack.container.persistentStoreCoordinator
            #expect(coordinator.managedObjectID(forURIRepresentation: permanent.uriRepresentation()) == permanent)
            #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://other/Team/p1")!) == nil)
            #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(store.identifier)/Nope/p1")!) == nil)
            #expect(coordinator.managedObjectID(forURIRepresentation: temporary.uriRepresentation()) == nil)
            // The old temporary ID still finds the object in its context.
            #expect(context.object(with: temporary) === team)
        }
        // URIs survive a relaunch.
        let uri = try context.performAndWait { try context.all(Team.self)[0].objectID.uriRepresentation() }
        let reopened = try stack.reopened()
        let other = reopened.newContext()
        try other.performAndWait {
            let id = try #require(reopened.container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
            #expect((try other.existingObject(with: id) as? Team)?.teamName == "Peru")
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func obtainPermanentIDsBeforeSaving(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let item = Item(context: context)
            item.name = "bread"
            try context.obtainPermanentIDs(for: [item])
            let id = item.objectID
            #expect(!id.isTemporaryID)
            try context.save()
            #expect(item.objectID == id)
            #expect(try context.all(Item.self).map(\.objectID) == [id])
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func faultsLoadOnFirstAccess(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let writer = stack.newContext()
        let id = try writer.performAndWait {
            let team = Team(context: writer)
            team.teamName = "Uruguay"
            team.qualifyingZone = "CONMEBOL"
            team.wins = 3
            try writer.save()
            return team.objectID
        }
        let reader = stack.newContext()
        reader.performAndWait {
            let team = reader.object(with: id) as! Team
            #expect(team.isFault)
            #expect(team.wins == 3)
            #expect(!team.isFault)
        }
        // A fault for a row deleted elsewhere reads as deleted, and existingObject throws.
        let stale = stack.newContext()
        let fault = stale.performAndWait { stale.object(with: id) }
        try writer.performAndWait {
            writer.delete(try writer.existingObject(with: id))
            try writer.save()
        }
        stale.performAndWait {
            #expect(fault.isFault)
            #expect((fault as! Team).wins == 0)
            #expect(fault.isDeleted)
            #expect(throws: ObjectGraphError.self) { try stale.existingObject(with: id) }
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func keyValueCoding(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.setValue("Mexico", forKey: "teamName")
            team.setValue("CONCACAF", forKey: "qualifyingZone")
            team.setValue(7, forKey: "wins")
            #expect(team.wins == 7)
            #expect(team.value(forKey: "wins") as? Int == 7)
            #expect(team.value(forKey: "wins") as? Int16 == 7)
            #expect(team.value(forKey: "teamName") as? String == "Mexico")
            #expect(team.value(forKey: "imageName") == nil)
            #expect(team.value(forKey: "noSuchKey") == nil)
            let player = Player(context: context)
            player.name = "Hugo"
            player.setValue(team, forKey: "team")
            #expect(player.value(forKeyPath: "team.teamName") as? String == "Mexico")
            #expect(team.value(forKeyPath: "players.@count") as? Int == 1)
            let second = Player(context: context)
            second.name = "Rafa"
            team.mutableSetValue(forKey: "players").add(second)
            #expect(second.team === team)
            #expect(team.players.count == 2)
            #expect(team.value(forKeyPath: "players.name") as? Set<String> == ["Hugo", "Rafa"])
            try context.save()
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func changeTrackingQueries(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Japan"
            team.qualifyingZone = "AFC"
            #expect(team.isInserted && team.hasChanges && !team.isUpdated)
            #expect(context.insertedObjects == [team])
            #expect(team.changedValues()["teamName"] as? String == "Japan")
            #expect(team.committedValues(forKeys: nil).isEmpty)
            try context.save()
            #expect(!team.hasChanges && !context.hasChanges)
            team.wins = 4
            #expect(team.isUpdated && context.updatedObjects == [team])
            #expect(team.changedValues().keys.sorted() == ["wins"])
            #expect(team.committedValues(forKeys: ["wins"])["wins"] as? Int == 0)
            #expect(team.changedValuesForCurrentEvent()["wins"] as? Int == 0)
            context.processPendingChanges()
            #expect(team.changedValuesForCurrentEvent().isEmpty)
            context.delete(team)
            #expect(team.isDeleted && context.deletedObjects == [team])
            try context.save()
            #expect(team.managedObjectContext == nil)
            #expect(try context.all(Team.self).isEmpty)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func rollbackResetAndRefresh(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let kept = Team(context: context)
            kept.teamName = "Korea"
            kept.qualifyingZone = "AFC"
            try context.save()
            kept.wins = 9
            let added = Team(context: context)
            added.teamName = "Iran"
            added.qualifyingZone = "AFC"
            context.rollback()
            #expect(kept.wins == 0 && !context.hasChanges)
            #expect(try context.all(Team.self) == [kept])
            kept.wins = 2
            context.refresh(kept, mergeChanges: false)
            #expect(kept.isFault)
            #expect(kept.wins == 0)
            kept.wins = 5
            context.refresh(kept, mergeChanges: true)
            #expect(kept.wins == 5)
            context.reset()
            #expect(kept.managedObjectContext == nil)
            #expect(context.registeredObjects.isEmpty)
            #expect(try context.all(Team.self).count == 1)
        }
    }
    /// A new object keeps no old values for changes made before its insert is reported, only
    /// which keys changed: their old values are the defaults, before, during and after the report.
    @Test func aNewObjectsChangesForTheCurrentEventHaveTheDefaultsAsOldValues() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        let heard = NotificationBox()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                              object: context, queue: nil) { note in
            heard.notification = note
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Japan"
            team.wins = 3
            team.wins = 4
            let before = team.changedValuesForCurrentEvent()
            #expect(Set(before.keys) == ["teamName", "wins"])
            #expect(before["wins"] as? Int == 0)
            #expect(before["teamName"] is NSNull)

            // While the insert is reported, observers read the same (on the context's queue,
            // where the notification is posted).
            let box = ObjectsBox([team])
            let reader = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                                object: context, queue: nil) { _ in
                let values = box.objects.first?.changedValuesForCurrentEvent() ?? [:]
                #expect(Set(values.keys) == ["teamName", "wins"])
                #expect(values["wins"] as? Int == 0)
            }
            context.processPendingChanges()
            NotificationCenter.default.removeObserver(reader)
            #expect((heard.notification?.userInfo?[InsertedObjectsKey] as? Set<ManagedObject>) == [team])

            // After the report, the next change has its real old value, and nothing else is pending.
            #expect(team.changedValuesForCurrentEvent().isEmpty)
            team.wins = 5
            #expect(team.changedValuesForCurrentEvent().keys.sorted() == ["wins"])
            #expect(team.changedValuesForCurrentEvent()["wins"] as? Int == 4)
            team.qualifyingZone = "AFC"
            try context.save()
            #expect(team.wins == 5 && !team.hasChanges)
        }
    }
}
