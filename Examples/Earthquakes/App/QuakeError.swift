public import Foundation

/// Why a step of the Earthquakes data layer failed.
public enum QuakeError: Error {
    /// The feed is not GeoJSON of the expected shape; `error` is the decoder's.
    case wrongDataFormat(error: any Error)
    /// A feature lacks a value a quake needs (a null magnitude, say); the importer skips it.
    case missingData
    /// The store could not be loaded; `error` is the container's.
    case storeNotLoaded(error: any Error)
    /// The batch insert ran but did not report success.
    case batchInsertError
    /// The batch delete ran but did not report the deleted objects.
    case batchDeleteError
}

extension QuakeError: LocalizedError {
    /// A sentence for the user, as the sample's alert shows it.
    public var errorDescription: String? {
        switch self {
        case .wrongDataFormat(let error): "Could not digest the fetched data. \(error)"
        case .missingData: "Found and will discard a quake missing a valid code, magnitude, place, or time."
        case .storeNotLoaded(let error): "Could not load the quakes store. \(error)"
        case .batchInsertError: "Failed to execute a batch insert request."
        case .batchDeleteError: "Failed to execute a batch delete request."
        }
    }
}
