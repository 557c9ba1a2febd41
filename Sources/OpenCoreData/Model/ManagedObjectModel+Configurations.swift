extension ManagedObjectModel {
    /// The names of the model's configurations: named subsets of its entities, as a model file's
    /// `<configuration>` elements declare them.
    ///
    /// A coordinator here keeps every entity in each store it loads, so a configuration only
    /// groups entities; Core Data can also place each configuration in a store of its own.
    public var configurations: [String] {
        configurationMembers.map(\.name)
    }

    /// The entities of a configuration; every entity for nil or the default configuration's
    /// name (`PF_DEFAULT_CONFIGURATION_NAME`), nil for a name the model does not have.
    public func entities(forConfigurationName name: String?) -> [EntityDescription]? {
        guard let name, name != Self.defaultConfigurationName else { return entities }
        return configurationMembers.first { $0.name == name }?.entities
    }

    /// Makes `entities` the members of the configuration `name`, replacing earlier members.
    public func setEntities(_ entities: [EntityDescription], forConfigurationName name: String) {
        checkMutable()
        if let index = configurationMembers.firstIndex(where: { $0.name == name }) {
            configurationMembers[index].entities = entities
        } else {
            configurationMembers.append((name, entities))
        }
    }

    /// Core Data's name for the configuration that holds every entity.
    static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"
}

extension ManagedObjectModel {
    /// The model's named fetch requests, as a model file's model-level `<fetchRequest>` elements
    /// declare them.
    public var fetchRequestTemplatesByName: [String: FetchRequest<ManagedObject>] {
        fetchRequestTemplates
    }

    /// The fetch request template named `name`, or nil.
    public func fetchRequestTemplate(forName name: String) -> FetchRequest<ManagedObject>? {
        fetchRequestTemplates[name]
    }

    /// Stores `request` as the template named `name`; nil removes the template.
    public func setFetchRequestTemplate(_ request: FetchRequest<ManagedObject>?, forName name: String) {
        checkMutable()
        fetchRequestTemplates[name] = request
    }

    /// A new fetch request made from the template named `name`, its predicate's `$VARIABLE`s
    /// replaced by `variables`; nil when there is no such template.
    ///
    /// ```swift
    /// let request = try model.fetchRequestFromTemplate(withName: "booksByAuthor",
    ///                                                  substitutionVariables: ["AUTHOR": "Austen"])
    /// ```
    ///
    /// - Throws: ``PredicateParseError`` for a value a predicate cannot hold (variables missing
    ///   from `variables` stay in the predicate, as ``FetchPredicate/withSubstitutionVariables(_:)`` says).
    public func fetchRequestFromTemplate(withName name: String,
                                         substitutionVariables variables: [String: Any?]) throws -> FetchRequest<ManagedObject>? {
        guard let template = fetchRequestTemplates[name] else { return nil }
        let request = FetchRequest<ManagedObject>()
        request.entityName = template.entityName
        request.entity = template.entity
        request.predicate = try template.predicate?.withSubstitutionVariables(variables)
        request.sortDescriptors = template.sortDescriptors
        request.fetchLimit = template.fetchLimit
        request.fetchOffset = template.fetchOffset
        request.fetchBatchSize = template.fetchBatchSize
        request.includesPendingChanges = template.includesPendingChanges
        request.includesSubentities = template.includesSubentities
        request.returnsObjectsAsFaults = template.returnsObjectsAsFaults
        request.shouldRefreshRefetchedObjects = template.shouldRefreshRefetchedObjects
        request.relationshipKeyPathsForPrefetching = template.relationshipKeyPathsForPrefetching
        request.returnsDistinctResults = template.returnsDistinctResults
        return request
    }
}
