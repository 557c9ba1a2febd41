import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Sorting by a to-many relationship's `@count` (through to-ones too), as Core Data's SQLite
/// store does, checked against counts computed here; a fetched results controller refuses it.
@Suite struct CountSortTests {
    typealias Playlist = OrderedFixtures.Playlist
    typealias Song = OrderedFixtures.Song

    /// Playlists with random numbers of songs and featured songs, saved.
    private static func seed(_ stack: TestStack, seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let context = stack.newContext()
        try context.performAndWait {
            var songs: [Song] = []
            for index in 0..<12 {
                let playlist = Playlist(context: context)
                playlist.name = String(format: "p%02d", index)
                for _ in 0..<Int.random(in: 0...5, using: &generator) {
                    let song = Song(context: context)
                    song.title = "s\(songs.count)"
                    song.playlist = playlist
                    songs.append(song)
                }
                playlist.featured = songs.filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }
            }
            try context.save()
        }
    }

    private static func names(_ context: ManagedObjectContext, by keys: [FetchSortDescriptor]) throws -> [String] {
        let request = Playlist.fetchRequest()
        request.sortDescriptors = keys
        return try context.fetch(request).map(\.name)
    }

    /// The names in the order the counts give, computed from the objects.
    private static func expected(_ context: ManagedObjectContext, count: (Playlist) -> Int, ascending: Bool) throws -> [String] {
        try context.fetch(Playlist.fetchRequest())
            .sorted { left, right in
                let (a, b) = (count(left), count(right))
                return a != b ? (ascending ? a < b : a > b) : left.name < right.name
            }
            .map(\.name)
    }

    @Test(arguments: StoreKind.withPostgres, [UInt64(5), 6])
    func fetchesSortByACount(kind: StoreKind, seed: UInt64) throws {
        let stack = try TestStack(kind, model: try OrderedFixtures.model())
        try Self.seed(stack, seed: seed)
        let context = stack.newContext()
        try context.performAndWait {
            let bySongs = try Self.names(context, by: [FetchSortDescriptor(key: "songs.@count", ascending: false), FetchSortDescriptor(key: "name")])
            #expect(bySongs == (try Self.expected(context, count: { $0.songs.count }, ascending: false)))
            let byFeatured = try Self.names(context, by: [FetchSortDescriptor(key: "featured.@count"), FetchSortDescriptor(key: "name")])
            #expect(byFeatured == (try Self.expected(context, count: { $0.featured.count }, ascending: true)))

            // Through a to-one: songs by the size of their playlist.
            let request = Song.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "playlist.songs.@count"), FetchSortDescriptor(key: "title")]
            let songs = try context.fetch(request)
            let sizes = songs.map { $0.playlist?.songs.count ?? 0 }
            #expect(sizes == sizes.sorted())

            // Unsaved changes count for the objects that changed, which the fetch places by their
            // counts now; other rows keep the store's order, as in Core Data.
            let playlists = try context.fetch(Playlist.fetchRequest())
            for playlist in playlists.prefix(3) {
                for index in 0..<7 {
                    let song = Song(context: context)
                    song.title = "\(playlist.name)-new\(index)"
                    song.playlist = playlist
                }
            }
            let unsaved = try Self.names(context, by: [FetchSortDescriptor(key: "songs.@count", ascending: false), FetchSortDescriptor(key: "name")])
            #expect(unsaved == (try Self.expected(context, count: { $0.songs.count }, ascending: false)))
        }
    }

    @Test func sortsThatCannotBeFollowedOrWrittenAreRefused() throws {
        let stack = try TestStack(.sqlite, model: try OrderedFixtures.model())
        let context = stack.newContext()
        context.performAndWait {
            let request = Playlist.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "songs.@count")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            let error = #expect(throws: FetchedResultsError.self) { try controller.performFetch() }
            #expect(error?.code == FetchedResultsError.unsupportedSortKey)
            #expect(error?.message.contains("derived attribute") == true)

            request.sortDescriptors = [FetchSortDescriptor(key: "songs.title")]
            let refused = #expect(throws: FetchRequestError.self) { try context.fetch(request) }
            #expect(refused?.message.contains("only 'songs.@count' can be sorted by") == true, "\(String(describing: refused))")
        }
    }
}
