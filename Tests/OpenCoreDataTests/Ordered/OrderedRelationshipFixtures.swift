import Foundation
import OpenCoreData

/// Playlists with an ordered one-to-many (`songs`, kept through the song's `playlist` column) and
/// an ordered many-to-many ordered at both ends (`featured` and `featuredIn`, a join table).
enum OrderedFixtures {
    final class Playlist: ManagedObject {
        @Managed var name: String
        @Managed(inverse: "playlist") var songs: [Song]
        @Managed(inverse: "featuredIn") var featured: [Song]
    }

    final class Song: ManagedObject {
        @Managed var title: String
        @Managed(inverse: "songs") var playlist: Playlist?
        @Managed(inverse: "featured") var featuredIn: [Playlist]
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: [Playlist.self, Song.self])
    }

    /// What the relationships should hold, by name and title.
    struct Reference: Equatable, CustomStringConvertible {
        var songs: [String: [String]] = [:]
        var featured: [String: [String]] = [:]
        var featuredIn: [String: [String]] = [:]

        var description: String { "songs \(songs)\nfeatured \(featured)\nfeaturedIn \(featuredIn)" }

        func playlist(of title: String) -> String? {
            songs.first { $0.value.contains(title) }?.key
        }

        /// The song joins `playlist` at `index` (the end when nil), leaving its old playlist; a
        /// song already in the playlist stays where it is.
        mutating func put(_ title: String, in playlist: String, at index: Int? = nil) {
            if playlist == self.playlist(of: title) { return }
            if let old = self.playlist(of: title) { songs[old]?.removeAll { $0 == title } }
            var list = songs[playlist] ?? []
            list.insert(title, at: min(index ?? list.count, list.count))
            songs[playlist] = list
        }

        mutating func feature(_ title: String, in playlist: String, songIndex: Int? = nil, playlistIndex: Int? = nil) {
            var songs = featured[playlist] ?? []
            var playlists = featuredIn[title] ?? []
            if songs.contains(title) { return }
            songs.insert(title, at: min(songIndex ?? songs.count, songs.count))
            playlists.insert(playlist, at: min(playlistIndex ?? playlists.count, playlists.count))
            featured[playlist] = songs
            featuredIn[title] = playlists
        }

        mutating func unfeature(_ title: String, from playlist: String) {
            featured[playlist]?.removeAll { $0 == title }
            featuredIn[title]?.removeAll { $0 == playlist }
        }

        mutating func delete(_ title: String) {
            for key in songs.keys { songs[key]?.removeAll { $0 == title } }
            for key in featured.keys { featured[key]?.removeAll { $0 == title } }
            featuredIn[title] = nil
        }
    }

    /// What a context's objects hold, as names and titles.
    static func observed(in context: ManagedObjectContext) throws -> Reference {
        var reference = Reference()
        for playlist in try context.all(Playlist.self) {
            reference.songs[playlist.name] = playlist.songs.map(\.title)
            reference.featured[playlist.name] = playlist.featured.map(\.title)
        }
        for song in try context.all(Song.self) {
            reference.featuredIn[song.title] = song.featuredIn.map(\.name)
        }
        return reference
    }

    /// The same reference without the empty lists a context shows and a reference may not have.
    static func normalized(_ reference: Reference) -> Reference {
        var copy = reference
        copy.songs = copy.songs.filter { !$0.value.isEmpty }
        copy.featured = copy.featured.filter { !$0.value.isEmpty }
        copy.featuredIn = copy.featuredIn.filter { !$0.value.isEmpty }
        return copy
    }
}
