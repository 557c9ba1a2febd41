public import Foundation
import OpenCoreData

extension QuakesProvider {
    /// Imports a USGS GeoJSON feed: every complete quake is inserted, or updates the stored quake
    /// of the same code, in one batch insert.
    ///
    /// ```swift
    /// try await provider.importQuakes(from: Data(contentsOf: fileURL))
    /// ```
    ///
    /// The sample downloads the feed from ``feedURL`` with `URLSession`; this port is given the
    /// data, so it runs without a network (and without FoundationNetworking on Linux).
    ///
    /// - Parameter data: The feed, as the USGS serves it.
    /// - Throws: ``QuakeError/wrongDataFormat(error:)`` when the data is not a feed, before
    ///   anything is written; the batch insert's error when the store refuses the rows, in which
    ///   case nothing of the feed is written either.
    public func importQuakes(from data: Data) async throws {
        let geoJSON: GeoJSON
        do {
            geoJSON = try JSONDecoder().decode(GeoJSON.self, from: data)
        } catch {
            throw QuakeError.wrongDataFormat(error: error)
        }
        try await importQuakes(from: geoJSON.quakePropertiesList)
    }

    /// Inserts the quakes in one batch insert on a new background context, recorded in the
    /// store's history under the author `importQuakes`.
    private func importQuakes(from propertiesList: [QuakeProperties]) async throws {
        guard !propertiesList.isEmpty else { return }
        let taskContext = newTaskContext()
        // Named, so that the history tells the import's transactions from others.
        taskContext.name = "importContext"
        taskContext.transactionAuthor = "importQuakes"
        try await taskContext.perform {
            let batchInsertRequest = self.newBatchInsertRequest(with: propertiesList)
            let fetchResult = try taskContext.execute(batchInsertRequest)
            guard let batchInsertResult = fetchResult as? BatchInsertResult,
                  let success = batchInsertResult.result as? Bool, success
            else {
                throw QuakeError.batchInsertError
            }
        }
    }

    /// A batch insert that asks for one quake's row at a time, so that no second array of rows is
    /// built beside the decoded list.
    private func newBatchInsertRequest(with propertiesList: [QuakeProperties]) -> BatchInsertRequest {
        var index = 0
        let total = propertiesList.count
        let batchInsertRequest = BatchInsertRequest(entityName: "Quake", dictionaryHandler: { dictionary in
            guard index < total else { return true }
            dictionary.addEntries(from: propertiesList[index].dictionaryValue)
            index += 1
            return false
        })
        return batchInsertRequest
    }
}
