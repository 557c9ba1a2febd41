import Foundation

/// A controller's fetch request without its result type: the controller keeps the request by
/// reference (as Core Data does) and reads it again at each fetch and each change batch.
struct AnyFetchRequest {
    let sortDescriptors: () -> [FetchSortDescriptor]?
    let resultType: () -> FetchRequestResultType
    let includesPendingChanges: () -> Bool
    let fetchBatchSize: () -> Int
    let prefetchKeyPaths: () -> [String]?
    let predicate: () -> FetchPredicate?
    /// The request's `fetchOffset` and `fetchLimit` now, as a store reads them.
    let window: () -> FetchWindow
    let description: () -> String
    let storeFetch: (ResultsSource) throws -> StoreFetch
    let fetchAll: (ManagedObjectContext) throws -> [Any]

    init<Result>(_ request: FetchRequest<Result>) {
        sortDescriptors = { request.sortDescriptors }
        resultType = { request.resultType }
        includesPendingChanges = { request.includesPendingChanges }
        fetchBatchSize = { request.fetchBatchSize }
        prefetchKeyPaths = { request.relationshipKeyPathsForPrefetching }
        predicate = { request.predicate }
        window = { FetchWindow(offset: max(0, request.fetchOffset), limit: max(0, request.fetchLimit)) }
        description = { request.description }
        storeFetch = { source in try source.storeFetch(for: request) }
        fetchAll = { context in try context.fetch(request) }
    }
}

/// A controller's request checked against the model at a fetch: what the results are and how
/// they are ordered and sectioned.
struct FetchedResultsConfiguration {
    let plan: StoreFetch
    let section: SectionKeyPath?
    let includesPendingChanges: Bool
    let batchSize: Int
    let prefetchKeyPaths: [String]?
    let returnsObjectIDs: Bool
    /// The request's offset and limit when the controller keeps them as changes arrive; nil
    /// without either, or when they hold at the fetch only (``AnyFetchedResultsController/keepsFetchWindow``).
    let window: FetchWindow?
    /// Names of the properties whose change can move a row: the first property of each sort key
    /// and of the section key path (Core Data looks no further, so changes to related objects
    /// do not move rows).
    let positionKeys: Set<String>
    /// A description of everything that decides the results, for the section cache.
    let fingerprint: String

    init(request: AnyFetchRequest, sectionNameKeyPath: String?, source: ResultsSource, keepsWindow: Bool = true) throws {
        guard let sortDescriptors = request.sortDescriptors() else {
            throw FetchedResultsError(FetchedResultsError.missingSortDescriptors,
                                      "a fetched results controller needs a fetch request with sort descriptors (Core Data raises an exception here); set sortDescriptors, to [] if the order does not matter")
        }
        let resultType = request.resultType()
        guard resultType == .managedObjectResultType || resultType == .managedObjectIDResultType else {
            throw FetchedResultsError(FetchedResultsError.unsupportedResultType,
                                      "a fetched results controller follows objects or object IDs; the request's resultType is \(resultType)")
        }
        plan = try request.storeFetch(source)
        let entity = plan.entity
        if let counted = plan.sortKeys.first(where: { $0.path.steps.contains { if case .count = $0 { true } else { false } } }) {
            throw FetchedResultsError(FetchedResultsError.unsupportedSortKey,
                                      "a fetched results controller cannot sort \(entity.entityName) by '\(counted.path.text)': a count changes when other objects change, which moves rows the controller does not follow; add a derived attribute with the derivation '\(counted.path.text)' (recomputed when a save changes the relationship) and sort by it")
        }
        let section = try sectionNameKeyPath.map { try SectionKeyPath($0, entity: entity) }
        self.section = section
        includesPendingChanges = request.includesPendingChanges()
        batchSize = request.fetchBatchSize()
        prefetchKeyPaths = request.prefetchKeyPaths()
        returnsObjectIDs = resultType == .managedObjectIDResultType
        window = keepsWindow && (plan.limit > 0 || plan.offset > 0) ? FetchWindow(offset: plan.offset, limit: plan.limit) : nil
        positionKeys = Set(sortDescriptors.compactMap { $0.key.split(separator: ".").first.map(String.init) })
            .union(section.map { [$0.firstName] } ?? [])
        fingerprint = [
            "entity \(plan.entity.entityName)\(plan.includesSubentities ? " and subentities" : "")",
            "predicate \(request.predicate()?.predicateFormat ?? "TRUEPREDICATE")",
            "sort \(sortDescriptors.map(\.description).joined(separator: ", "))",
            "section \(sectionNameKeyPath ?? "-")",
            "window \(plan.offset) \(plan.limit)",
            "model \(ModelSchema(model: source.managedObjectModel).versionHash)",
        ].joined(separator: "\n")
    }

    /// Whether sections follow the first sort key by construction: the section key path is that
    /// key, a stored attribute of the fetched entity.
    var sectionIsFirstSortKey: Bool {
        guard let attribute = section?.storedAttribute, let first = plan.sortKeys.first,
              first.path.steps.count == 1, case .attribute(let sorted) = first.path.steps[0] else { return false }
        return sorted === attribute
    }
}
