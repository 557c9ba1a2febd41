import Foundation

/// A feed in the shape of the USGS GeoJSON summary feed, written by the tests: synthetic quakes,
/// one an hour, with the fields the real feed has around the ones the app reads.
struct FeedFixture {
    struct Quake {
        var code: String
        /// nil writes `"mag": null`, as the feed does for a quake not yet measured.
        var magnitude: Float?
        var place: String
        var time: Date
    }

    var quakes: [Quake]

    /// `count` quakes, `nc70000000` onward, an hour apart from the 1st of November 2025, with
    /// magnitudes from 1.0 to 4.9 raised by `magnitudeShift`.
    static func month(count: Int = 36, magnitudeShift: Float = 0) -> FeedFixture {
        let start = Date(timeIntervalSince1970: 1_761_955_200)
        let places = ["Cobb, CA", "Pāhala, Hawaii", "Anza, CA", "Nikiski, Alaska", "Ridgecrest, CA", "Yellowstone, WY"]
        return FeedFixture(quakes: (0..<count).map { index in
            Quake(code: "nc\(70_000_000 + index)",
                  magnitude: 1 + Float(index % 40) / 10 + magnitudeShift,
                  place: "\(index % 17 + 1) km NE of \(places[index % places.count])",
                  time: start.addingTimeInterval(Double(index) * 3600))
        })
    }

    /// The feed's JSON.
    func data() throws -> Data {
        try JSONEncoder().encode(Collection(features: quakes.map(Feature.init)))
    }

    /// The codes of the quakes whose magnitude is known: those the app stores.
    var storedCodes: Set<String> {
        Set(quakes.filter { $0.magnitude != nil }.map(\.code))
    }
}

// The GeoJSON written: a FeatureCollection of Point features.
private struct Collection: Encodable {
    struct Metadata: Encodable {
        var generated = 1_764_547_200_000
        var url = "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_month.geojson"
        var title = "USGS All Earthquakes, Past Month (test fixture)"
        var status = 200
        var api = "1.14.1"
        var count: Int
    }

    var type = "FeatureCollection"
    var metadata: Metadata
    var features: [Feature]

    init(features: [Feature]) {
        metadata = Metadata(count: features.count)
        self.features = features
    }
}

private struct Feature: Encodable {
    struct Properties: Encodable {
        var mag: Float?
        var place: String
        var time: Int64
        var updated: Int64
        var code: String
        var type = "earthquake"
        var title: String

        func encode(to encoder: any Encoder) throws {
            enum Keys: String, CodingKey { case mag, place, time, updated, code, type, title }
            var container = encoder.container(keyedBy: Keys.self)
            // Written even when nil: the feed sends `null`, it does not leave the key out.
            try container.encode(mag, forKey: .mag)
            try container.encode(place, forKey: .place)
            try container.encode(time, forKey: .time)
            try container.encode(updated, forKey: .updated)
            try container.encode(code, forKey: .code)
            try container.encode(type, forKey: .type)
            try container.encode(title, forKey: .title)
        }
    }

    struct Geometry: Encodable {
        var type = "Point"
        var coordinates: [Double]
    }

    var type = "Feature"
    var properties: Properties
    var geometry: Geometry
    var id: String

    init(_ quake: FeedFixture.Quake) {
        let milliseconds = Int64(quake.time.timeIntervalSince1970 * 1000)
        properties = Properties(mag: quake.magnitude, place: quake.place, time: milliseconds,
                                updated: milliseconds + 60_000, code: quake.code,
                                title: "M \(quake.magnitude.map { "\($0)" } ?? "?") - \(quake.place)")
        geometry = Geometry(coordinates: [-122.8, 38.8, 2.5])
        id = quake.code
    }
}
