import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Ordered relationships through key-value coding, child contexts, prefetching, migration and
/// mistakes; the random sequences are in OrderedRelationshipDifferentialTests.
@Suite struct OrderedRelationshipTests {
    typealias Playlist = OrderedFixtures.Playlist
    typealias Song = OrderedFixtures.Song

    /// A playlist of five songs, saved; returns the playlist's ID.
    private static func seed(_ stack: TestStack, titles: [String] = ["a", "b", "c", "d", "e"]) throws -> ManagedObjectID {
        let context = stack.newContext()
        return try context.performAndWait {
            let playlist = Playlist(context: context)
            playlist.name = "mix"
            playlist.songs = titles.map { title in
                let song = Song(context: context)
                song.title = title
                return song
            }
            try context.save()
            return playlist.objectID
        }
    }

    private static func storedTitles(_ stack: TestStack, _ id: ManagedObjectID, key: String = "songs") throws -> [String] {
        let context = stack.newContext()
        return try context.performAndWait {
            let playlist = try context.existingObject(with: id)
            return playlist.mutableOrderedSetValue(forKey: key).array.compactMap { ($0 as? Song)?.title }
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func keyValueCodingSpeaksOrderedSets(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try OrderedFixtures.model())
        let id = try Self.seed(stack)
        let context = stack.newContext()
        try context.performAndWait {
            let playlist = try context.existingObject(with: id)
            let songs = try #require(playlist.value(forKey: "songs") as? NSOrderedSet)
            #expect(songs.array.compactMap { ($0 as? Song)?.title } == ["a", "b", "c", "d", "e"])
            #expect(playlist.value(forKeyPath: "songs.@count") as? Int == 5)
            #expect(playlist.value(forKeyPath: "songs.title") as? Set<AnyHashable> == ["a", "b", "c", "d", "e"])

            let reversed = NSOrderedSet(array: songs.array.reversed())
            playlist.setValue(reversed, forKey: "songs")
            let changed = try #require(playlist.changedValues()["songs"] as? NSOrderedSet)
            #expect(changed.array.compactMap { ($0 as? Song)?.title } == ["e", "d", "c", "b", "a"])
            let committed = try #require(playlist.committedValues(forKeys: ["songs"])["songs"] as? NSOrderedSet)
            #expect(committed.array.compactMap { ($0 as? Song)?.title } == ["a", "b", "c", "d", "e"])
            try context.save()
        }
        #expect(try Self.storedTitles(stack, id) == ["e", "d", "c", "b", "a"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func childContextsCarryTheOrderToTheStore(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try OrderedFixtures.model())
        let id = try Self.seed(stack)
        let chain = ContextChain(stack, depth: 2)
        try chain.leaf.performAndWait {
            let playlist = try chain.leaf.existingObject(with: id)
            let songs = playlist.mutableOrderedSetValue(forKey: "songs")
            songs.moveObjects(at: IndexSet([0, 1]), to: 3)
            let intro = Song(context: chain.leaf)
            intro.title = "intro"
            songs.insert(intro, at: 0)
            songs.removeObject(at: 3)
            try chain.leaf.save()
        }
        let middle = chain.contexts[1]
        let inParent = try middle.performAndWait {
            try middle.existingObject(with: id).mutableOrderedSetValue(forKey: "songs").array.compactMap { ($0 as? Song)?.title }
        }
        // [c, d, e] once a and b are taken out, a and b at its end, the intro first, e removed.
        #expect(inParent == ["intro", "c", "d", "a", "b"])
        #expect(try Self.storedTitles(stack, id) == ["a", "b", "c", "d", "e"])
        try chain.saveAll()
        #expect(try Self.storedTitles(stack, id) == ["intro", "c", "d", "a", "b"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func prefetchingKeepsTheOrder(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try OrderedFixtures.model())
        let id = try Self.seed(stack, titles: ["q", "w", "e", "r", "t", "y"])
        let writer = stack.newContext()
        try writer.performAndWait {
            let playlist = try #require(try writer.existingObject(with: id) as? Playlist)
            var generator = SplitMix64(seed: 42)
            playlist.songs = playlist.songs.shuffled(using: &generator)
            playlist.featured = Array(playlist.songs.prefix(3).reversed())
            try writer.save()
        }
        let (expectedSongs, expectedFeatured) = try writer.performAndWait {
            let playlist = try #require(try writer.existingObject(with: id) as? Playlist)
            return (playlist.songs.map(\.title), playlist.featured.map(\.title))
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let request = Playlist.fetchRequest()
            request.relationshipKeyPathsForPrefetching = ["songs", "featured"]
            let playlist = try #require(try reader.fetch(request).first)
            #expect(playlist.songs.map(\.title) == expectedSongs)
            #expect(playlist.featured.map(\.title) == expectedFeatured)
        }
    }

    /// Another coordinator on the same store (another process, or another server on
    /// PostgreSQL) reorders: the order reaches a context that merges automatically.
    @Test(arguments: StoreKind.sqlStores)
    func anotherCoordinatorsOrderReachesMergingContexts(kind: StoreKind) throws {
        let stack = try HistoryStack(kind, model: try OrderedFixtures.model())
        let id = try stack.save { context in
            let playlist = Playlist(context: context)
            playlist.name = "mix"
            for title in ["a", "b", "c", "d"] {
                let song = Song(context: context)
                song.title = title
                song.playlist = playlist
            }
            try context.obtainPermanentIDs(for: [playlist])
            return playlist.objectID
        }
        let reader = stack.newContext()
        let before = try reader.performAndWait {
            reader.automaticallyMergesChangesFromParent = true
            reader.retainsRegisteredObjects = true
            return try #require(try reader.existingObject(with: id) as? Playlist).songs.map(\.title)
        }
        #expect(before == ["a", "b", "c", "d"])
        let other = try stack.reopened()
        try other.save { context in
            let playlist = try context.existingObject(with: other.sameObject(id))
            let songs = playlist.mutableOrderedSetValue(forKey: "songs")
            songs.exchangeObject(at: 0, withObjectAt: 3)
            let bonus = Song(context: context)
            bonus.title = "bonus"
            songs.insert(bonus, at: 1)
        }
        try ChangeFeedTests.waitForCommits(stack)
        let after = try reader.performAndWait { try #require(try reader.existingObject(with: id) as? Playlist).songs.map(\.title) }
        #expect(after == ["d", "bonus", "b", "c", "a"])
    }

    @Test func mistakesAreRefusedAtSaveAndNothingSavedIsLost() throws {
        let stack = try TestStack(.sqlite, model: try OrderedFixtures.model())
        let id = try Self.seed(stack)
        let context = stack.newContext()
        try context.performAndWait {
            let playlist = try context.existingObject(with: id)
            playlist.mutableOrderedSetValue(forKey: "name").add(Song(context: context))
            let unordered = #expect(throws: ValidationError.self) { try context.save() }
            #expect(unordered?.description.contains("no ordered to-many relationship 'name'") == true, "\(String(describing: unordered))")
            context.rollback()

            playlist.mutableOrderedSetValue(forKey: "songs").moveObjects(at: IndexSet(integer: 9), to: 0)
            playlist.mutableOrderedSetValue(forKey: "songs").insert(Song(context: context), at: 7)
            let error = #expect(throws: ValidationError.self) { try context.save() }
            let message = error?.description ?? ""
            #expect(message.contains("index 9 is beyond the 5 objects of Playlist.songs"))
            #expect(message.contains("cannot insert at index 7 of Playlist.songs"))
        }
        #expect(try Self.storedTitles(stack, id) == ["a", "b", "c", "d", "e"])
    }

    /// A store made when the relationship was unordered opens with it ordered: the order column
    /// is added, the songs read by key until reordered, and the new order is kept.
    @Test(arguments: StoreKind.sqlStores)
    func aRelationshipBecomesOrderedByLightweightMigration(kind: StoreKind) throws {
        func model(ordered: Bool) -> ManagedObjectModel {
            let playlist = EntityDescription(name: "Playlist")
            let song = EntityDescription(name: "Song")
            let songs = RelationshipDescription(name: "songs", destination: song, toMany: true)
            songs.isOrdered = ordered
            let owner = RelationshipDescription(name: "playlist", destination: playlist)
            songs.inverseRelationship = owner
            owner.inverseRelationship = songs
            playlist.properties = [AttributeDescription(name: "name", type: .string), songs]
            song.properties = [AttributeDescription(name: "title", type: .string), owner]
            return ManagedObjectModel(entities: [playlist, song])
        }
        let stack = try TestStack(kind, model: model(ordered: false))
        let context = stack.newContext()
        try context.performAndWait {
            let entities = stack.container.managedObjectModel.entitiesByName
            let playlist = ManagedObject(entity: try #require(entities["Playlist"]), insertInto: context)
            for title in ["x", "y", "z"] {
                let song = ManagedObject(entity: try #require(entities["Song"]), insertInto: context)
                song.setValue(title, forKey: "title")
                song.setValue(playlist, forKey: "playlist")
            }
            try context.save()
        }
        func titles(_ stack: TestStack) throws -> [String] {
            let reader = stack.newContext()
            return try reader.performAndWait {
                let playlist = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Playlist")).first)
                let songs = try #require(playlist.value(forKey: "songs") as? NSOrderedSet)
                return songs.array.compactMap { ($0 as? ManagedObject)?.value(forKey: "title") as? String }
            }
        }
        let migrated = try stack.reopened(model: model(ordered: true))
        #expect(try titles(migrated) == ["x", "y", "z"])
        let writer = migrated.newContext()
        try writer.performAndWait {
            let playlist = try #require(try writer.fetch(FetchRequest<ManagedObject>(entityName: "Playlist")).first)
            playlist.mutableOrderedSetValue(forKey: "songs").moveObjects(at: IndexSet(integer: 2), to: 0)
            try writer.save()
        }
        #expect(try titles(try migrated.reopened(model: model(ordered: true))) == ["z", "x", "y"])
    }

    /// Without an inverse, an ordered to-many keeps its links in a join table, and its order
    /// in the owner's row all the same.
    @Test(arguments: StoreKind.withPostgres)
    func anOrderedRelationshipWithoutInverseKeepsItsOrder(kind: StoreKind) throws {
        let playlist = EntityDescription(name: "Playlist")
        let song = EntityDescription(name: "Song")
        let songs = RelationshipDescription(name: "songs", destination: song, toMany: true)
        songs.isOrdered = true
        playlist.properties = [AttributeDescription(name: "name", type: .string), songs]
        song.properties = [AttributeDescription(name: "title", type: .string)]
        let stack = try TestStack(kind, model: ManagedObjectModel(entities: [playlist, song]))
        let context = stack.newContext()
        try context.performAndWait {
            let mix = ManagedObject(entity: playlist, insertInto: context)
            let list = mix.mutableOrderedSetValue(forKey: "songs")
            for title in ["one", "two", "three"] {
                let object = ManagedObject(entity: song, insertInto: context)
                object.setValue(title, forKey: "title")
                list.insert(object, at: 0)
            }
            try context.save()
            list.moveObjects(at: IndexSet(integer: 0), to: 2)
            try context.save()
        }
        let fresh = stack.newContext()
        let titles = try fresh.performAndWait {
            let mix = try #require(try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Playlist")).first)
            return mix.mutableOrderedSetValue(forKey: "songs").array.compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["two", "one", "three"])
    }

    @Test func linksTheOrderDoesNotListComeAfterItByKey() {
        let entity = EntityDescription(name: "Song")
        let ids = [5, 2, 9, 4].map { ManagedObjectID(entity: entity, storeIdentifier: "s", primaryKey: Int64($0)) }
        let order = StoredRelationshipOrder.decode(StoredRelationshipOrder.encode([9, 7, 2].map {
            ManagedObjectID(entity: entity, storeIdentifier: "s", primaryKey: Int64($0))
        }))
        #expect(order == [9, 7, 2])
        #expect(StoredRelationshipOrder.arrange(ids, by: order).map(\.key) == [9, 2, 4, 5])
        #expect(StoredRelationshipOrder.decode(Data([1, 0, 0, 0, 0, 0, 0, 0, 7])) == [1])
    }
}
