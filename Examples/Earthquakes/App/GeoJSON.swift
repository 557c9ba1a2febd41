/// The USGS GeoJSON summary feed, decoded down to what the app stores: each feature's
/// ``QuakeProperties``.
///
/// ```swift
/// let quakes = try JSONDecoder().decode(GeoJSON.self, from: data).quakePropertiesList
/// ```
public struct GeoJSON: Decodable, Sendable {
    private enum RootCodingKeys: String, CodingKey {
        case features
    }

    private enum FeatureCodingKeys: String, CodingKey {
        case properties
    }

    /// The quakes of the feed, in its order, without the features that lack a value.
    public private(set) var quakePropertiesList: [QuakeProperties] = []

    /// Decodes the feed's `features`, skipping a feature whose properties are incomplete.
    ///
    /// - Throws: `DecodingError` when the feed has no `features` array, or a feature is not an
    ///   object: the data is not a feed, and nothing of it should be imported.
    public init(from decoder: any Decoder) throws {
        let rootContainer = try decoder.container(keyedBy: RootCodingKeys.self)
        var featuresContainer = try rootContainer.nestedUnkeyedContainer(forKey: .features)
        while !featuresContainer.isAtEnd {
            let propertiesContainer = try featuresContainer.nestedContainer(keyedBy: FeatureCodingKeys.self)
            // One incomplete quake should not keep the month's others out of the list.
            if let properties = try? propertiesContainer.decode(QuakeProperties.self, forKey: .properties) {
                quakePropertiesList.append(properties)
            }
        }
    }
}
