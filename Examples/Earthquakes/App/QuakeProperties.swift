import Foundation

/// The properties of one feature of the USGS GeoJSON summary feed that make a ``Quake``.
///
/// ```json
/// "properties": {"mag": 1.9, "place": "5 km SW of Cobb, CA", "time": 1700000000000, "code": "73912345", ...}
/// ```
public struct QuakeProperties: Decodable, Sendable {
    private enum CodingKeys: String, CodingKey {
        case magnitude = "mag"
        case place
        case time
        case code
    }

    /// The magnitude (`mag`).
    public let magnitude: Float
    /// Where it happened.
    public let place: String
    /// When it happened, in milliseconds since 1970, as the feed counts.
    public let time: Double
    /// The feed's identifier of the quake.
    public let code: String

    /// Decodes a feature's properties.
    ///
    /// - Throws: ``QuakeError/missingData`` when a value is absent or null, which the feed
    ///   reports for some quakes (a magnitude not yet computed); `DecodingError` for a value of
    ///   another type.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        guard let magnitude = try values.decodeIfPresent(Float.self, forKey: .magnitude),
              let place = try values.decodeIfPresent(String.self, forKey: .place),
              let time = try values.decodeIfPresent(Double.self, forKey: .time),
              let code = try values.decodeIfPresent(String.self, forKey: .code)
        else {
            throw QuakeError.missingData
        }
        self.magnitude = magnitude
        self.place = place
        self.time = time
        self.code = code
    }

    /// The row a batch insert writes: the `Quake` entity's attribute names and values.
    public var dictionaryValue: [String: Any] {
        [
            "magnitude": magnitude,
            "place": place,
            "time": Date(timeIntervalSince1970: time / 1000),
            "code": code,
        ]
    }
}
