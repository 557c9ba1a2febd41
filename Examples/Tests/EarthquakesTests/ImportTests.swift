import EarthquakesApp
import Foundation
import OpenCoreData
import Testing

/// The feed's import through a batch insert, on an SQLite store.
@Suite struct ImportTests {
    @Test func importInsertsEveryQuake() async throws {
        try await withQuakes { store in
            let feed = FeedFixture.month(count: 36)
            try await store.provider.importQuakes(from: try feed.data())

            let stored = try store.stored()
            #expect(stored.count == 36)
            for quake in feed.quakes {
                #expect(stored[quake.code] == quake.expected, "\(quake.code)")
            }
        }
    }

    @Test func importingAgainUpdatesInsteadOfDuplicating() async throws {
        try await withQuakes { store in
            try await store.provider.importQuakes(from: try FeedFixture.month(count: 36).data())
            // The next download: the same month with magnitudes revised, and six newer quakes.
            let revised = FeedFixture.month(count: 42, magnitudeShift: 0.5)
            try await store.provider.importQuakes(from: try revised.data())

            let stored = try store.stored()
            #expect(try store.count() == 42, "the constraint on code keeps one row per quake")
            for quake in revised.quakes {
                #expect(stored[quake.code] == quake.expected, "\(quake.code)")
            }
        }
    }

    @Test func aQuakeWithoutMagnitudeIsSkipped() async throws {
        try await withQuakes { store in
            var feed = FeedFixture.month(count: 30)
            feed.quakes[3].magnitude = nil
            feed.quakes[17].magnitude = nil
            try await store.provider.importQuakes(from: try feed.data())

            #expect(Set(try store.stored().keys) == feed.storedCodes)
            #expect(try store.count() == 28)
        }
    }

    @Test func aMalformedFeedThrowsAndLosesNothing() async throws {
        try await withQuakes { store in
            let feed = FeedFixture.month(count: 24)
            try await store.provider.importQuakes(from: try feed.data())
            let before = try store.stored()

            let full = try FeedFixture.month(count: 40, magnitudeShift: 1).data()
            let malformed: [Data] = [
                full.prefix(full.count / 2),                                  // cut off mid-download
                Data(#"{"type":"FeatureCollection","metadata":{}}"#.utf8),    // no features
                Data(#"{"features":[{"properties":{}}, 42]}"#.utf8),          // a feature that is no object
                Data("<html>503 Service Unavailable</html>".utf8),
            ]
            for data in malformed {
                await #expect {
                    try await store.provider.importQuakes(from: data)
                } throws: { error in
                    guard case QuakeError.wrongDataFormat = error else { return false }
                    return true
                }
            }
            #expect(try store.stored() == before)
        }
    }

    @Test func theModelFileIsLoadedWithItsConstraint() async throws {
        try await withQuakes { store in
            let entity = try #require(store.container.managedObjectModel.entitiesByName["Quake"])
            #expect(entity.uniquenessConstraints == [["code"]])
            #expect(entity.managedObjectClass == Quake.self)
        }
    }
}
