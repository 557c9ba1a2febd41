import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Random changes to ordered relationships, made through every way Core Data offers (the ordered
/// set proxy's indexed operations, assigning an array, the inverse to-one, the other end of a
/// many-to-many, deletion), checked after each save against a reference kept here: in the
/// saving context, in a context that merges the saves, and in a fresh context reading the store.
@Suite struct OrderedRelationshipDifferentialTests {
    typealias Playlist = OrderedFixtures.Playlist
    typealias Song = OrderedFixtures.Song

    @Test(arguments: StoreKind.withPostgres, [UInt64(1), 2, 3])
    func randomChangesKeepTheirOrder(kind: StoreKind, seed: UInt64) throws {
        let stack = try TestStack(kind, model: try OrderedFixtures.model())
        let context = stack.newContext()
        let observer = stack.newContext()
        observer.performAndWait {
            observer.automaticallyMergesChangesFromParent = true
            observer.retainsRegisteredObjects = true
        }
        var generator = SplitMix64(seed: seed)
        var reference = OrderedFixtures.Reference()
        try context.performAndWait {
            var run = Run(context: context)
            for name in ["p0", "p1", "p2"] { run.makePlaylist(name, reference: &reference) }
            for step in 0..<160 {
                run.step(&reference, &generator)
                // A deletion leaves the relationships when pending changes are processed, as in
                // Core Data; the reference drops the object at once.
                context.processPendingChanges()
                let current = try OrderedFixtures.observed(in: context)
                #expect(OrderedFixtures.normalized(current) == OrderedFixtures.normalized(reference), "unsaved, step \(step)")
                guard step % 8 == 7 else { continue }
                try context.save()
                let expected = OrderedFixtures.normalized(reference)
                let saving = try OrderedFixtures.observed(in: context)
                #expect(OrderedFixtures.normalized(saving) == expected, "saving context, step \(step)")
                let merging = try observer.performAndWait { try OrderedFixtures.observed(in: observer) }
                #expect(OrderedFixtures.normalized(merging) == expected, "merging context, step \(step)")
                let fresh = stack.newContext()
                let stored = try fresh.performAndWait { try OrderedFixtures.observed(in: fresh) }
                #expect(OrderedFixtures.normalized(stored) == expected, "fresh context, step \(step)")
            }
        }
        guard kind != .inMemory else { return }
        let reopened = try stack.reopened(model: try OrderedFixtures.model())
        let fresh = reopened.newContext()
        let stored = try fresh.performAndWait { try OrderedFixtures.observed(in: fresh) }
        #expect(OrderedFixtures.normalized(stored) == OrderedFixtures.normalized(reference))
    }

    /// The objects of one context, by name, and the changes a step makes to them and to the
    /// reference alike.
    struct Run {
        let context: ManagedObjectContext
        var playlists: [String: Playlist] = [:]
        var songs: [String: Song] = [:]
        var nextSong = 0

        init(context: ManagedObjectContext) {
            self.context = context
        }

        mutating func makePlaylist(_ name: String, reference: inout OrderedFixtures.Reference) {
            let playlist = Playlist(context: context)
            playlist.name = name
            playlists[name] = playlist
            reference.songs[name] = []
        }

        mutating func newSong() -> Song {
            let song = Song(context: context)
            song.title = "s\(nextSong)"
            nextSong += 1
            songs[song.title] = song
            return song
        }

        mutating func step(_ reference: inout OrderedFixtures.Reference, _ generator: inout SplitMix64) {
            let playlistName = playlists.keys.sorted().randomElement(using: &generator) ?? "p0"
            guard let playlist = playlists[playlistName] else { return }
            let titles = songs.keys.sorted()
            let existing = titles.randomElement(using: &generator).flatMap { songs[$0] }
            let list = playlist.mutableOrderedSetValue(forKey: "songs")
            let count = list.count
            switch Int.random(in: 0..<11, using: &generator) {
            case 0, 1:
                let song = newSong()
                let index = Int.random(in: 0...count, using: &generator)
                list.insert(song, at: index)
                reference.put(song.title, in: playlistName, at: index)
            case 2:
                guard let song = existing else { return }
                song.playlist = playlist
                reference.put(song.title, in: playlistName)
            case 3:
                guard let song = existing else { return }
                let index = Int.random(in: 0...count, using: &generator)
                list.insert(song, at: index)
                reference.put(song.title, in: playlistName, at: index)
            case 4:
                guard count > 0 else { return }
                let index = Int.random(in: 0..<count, using: &generator)
                list.removeObject(at: index)
                reference.songs[playlistName]?.remove(at: index)
            case 5:
                guard count > 1 else { return }
                let indexes = IndexSet((0..<count).filter { _ in Bool.random(using: &generator) })
                guard !indexes.isEmpty else { return }
                let destination = Int.random(in: 0...(count - indexes.count), using: &generator)
                list.moveObjects(at: indexes, to: destination)
                var order = reference.songs[playlistName] ?? []
                let moved = indexes.map { order[$0] }
                for index in indexes.reversed() { order.remove(at: index) }
                order.insert(contentsOf: moved, at: destination)
                reference.songs[playlistName] = order
            case 6:
                guard count > 1 else { return }
                let first = Int.random(in: 0..<count, using: &generator)
                let second = Int.random(in: 0..<count, using: &generator)
                list.exchangeObject(at: first, withObjectAt: second)
                reference.songs[playlistName]?.swapAt(first, second)
            case 7:
                // Assigning an array: a shuffled part of the list and maybe a song from elsewhere.
                var order = playlist.songs.filter { _ in Int.random(in: 0..<4, using: &generator) > 0 }.shuffled(using: &generator)
                if let song = existing, !order.contains(song) { order.insert(song, at: Int.random(in: 0...order.count, using: &generator)) }
                let kept = Set(order.map(\.title))
                let before = reference.songs[playlistName] ?? []
                playlist.songs = order
                for title in before where !kept.contains(title) { reference.songs[playlistName]?.removeAll { $0 == title } }
                for song in order where reference.playlist(of: song.title) != playlistName { reference.put(song.title, in: playlistName) }
                reference.songs[playlistName] = order.map(\.title)
            case 8:
                guard let song = existing else { return }
                let featured = playlist.mutableOrderedSetValue(forKey: "featured")
                if Bool.random(using: &generator) {
                    let index = Int.random(in: 0...featured.count, using: &generator)
                    if !featured.contains(song) { reference.feature(song.title, in: playlistName, songIndex: index) }
                    featured.insert(song, at: index)
                } else {
                    let index = Int.random(in: 0...song.featuredIn.count, using: &generator)
                    if !song.featuredIn.contains(playlist) { reference.feature(song.title, in: playlistName, playlistIndex: index) }
                    song.mutableOrderedSetValue(forKey: "featuredIn").insert(playlist, at: index)
                }
            case 9:
                guard let song = existing, song.featuredIn.contains(playlist) else { return }
                if Bool.random(using: &generator) {
                    song.mutableOrderedSetValue(forKey: "featuredIn").remove(playlist)
                } else {
                    playlist.mutableOrderedSetValue(forKey: "featured").remove(song)
                }
                reference.unfeature(song.title, from: playlistName)
            default:
                guard let song = existing, Int.random(in: 0..<3, using: &generator) == 0 else { return }
                context.delete(song)
                songs[song.title] = nil
                reference.delete(song.title)
            }
        }
    }
}
