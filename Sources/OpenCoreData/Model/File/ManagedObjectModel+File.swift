public import Foundation

extension ManagedObjectModel {
    /// Loads a model from the file Xcode's model editor writes: an `.xcdatamodeld` (the version
    /// its `.xccurrentversion` names), one `.xcdatamodel` version, or a version's `contents`.
    ///
    /// ```swift
    /// let url = Bundle.module.url(forResource: "Library", withExtension: "xcdatamodeld")!
    /// let model = try ManagedObjectModel(contentsOf: url, managedObjectClasses: [Book.self, Author.self])
    /// ```
    ///
    /// Everything the file declares is read: entities, abstract entities and parents, attributes
    /// with their optionality, defaults, indexing, transience; relationships with inverses,
    /// delete rules, counts; fetch indexes, uniqueness constraints, configurations, fetch
    /// request templates, user info, renaming identifiers and version hash modifiers. The
    /// model's ``name`` is the `.xcdatamodeld`'s, which its versions share, and its
    /// ``versionIdentifiers`` hold the version's identifier, if the file has one.
    ///
    /// Each entity is bound to the class its `representedClassName` names (a leading `.` or a
    /// module prefix is allowed) among `managedObjectClasses`; see ``EntityDescription/managedObjectClassName``.
    /// An entity whose class is not among them has ``ManagedObject`` objects, read and written by
    /// key, as Core Data falls back to `NSManagedObject`.
    ///
    /// Unlike Core Data's `init?(contentsOf:)`, this initializer throws, so that you learn what
    /// is wrong.
    ///
    /// - Parameters:
    ///   - url: The `.xcdatamodeld`, `.xcdatamodel` or `contents` file.
    ///   - managedObjectClasses: The classes of the model's entities, bound by name.
    /// - Throws: ``ModelError``: ``ModelError/invalidModelFile`` for a missing or malformed file,
    ///   or a compiled `.momd`; ``ModelError/unsupportedFeature`` naming the element, attribute
    ///   and line of anything the library does not support yet (a derived or transformable
    ///   attribute, a fetched property); ``ModelError/invalidDeclaration`` when a class's
    ///   `@Managed` properties disagree with its entity.
    public convenience init(contentsOf url: URL, managedObjectClasses: [ManagedObject.Type] = []) throws {
        let read = try Self.unboundModel(contentsOf: url)
        self.init(entities: read.entities)
        name = read.name
        versionIdentifiers = read.versionIdentifiers
        configurationMembers = read.configurationMembers
        fetchRequestTemplates = read.fetchRequestTemplates
        try ModelClassBinding(classes: managedObjectClasses, modules: ModelFileSearch.candidateModules(for: url)).bind(self)
    }

    /// The model a file declares, named after it, with every entity's objects still plain
    /// ``ManagedObject``s.
    private static func unboundModel(contentsOf url: URL) throws(ModelError) -> ManagedObjectModel {
        let package = try ModelFilePackage(locating: url)
        return try ModelFileReader.model(from: try package.readContents(), in: package)
    }

    /// One model holding the entities of every model file in `bundles` (the main bundle for
    /// nil): Core Data's `mergedModel(from:)`, for apps that split their model into several
    /// files. Each `.xcdatamodeld` contributes its current version.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel.mergedModel(from: [Bundle.module], managedObjectClasses: [Book.self])
    /// ```
    ///
    /// - Throws: ``ModelError/invalidModelFile`` when the bundles hold no model, or two models
    ///   declare an entity of the same name; any error of ``init(contentsOf:managedObjectClasses:)``.
    public static func mergedModel(from bundles: [Bundle]?,
                                   managedObjectClasses: [ManagedObject.Type] = []) throws -> ManagedObjectModel {
        let searched = bundles ?? [Bundle.main]
        let files = searched.flatMap { ModelFileSearch.modelFiles(in: $0) }
        guard !files.isEmpty else {
            throw ModelError(ModelError.invalidModelFile, "no .xcdatamodeld or .xcdatamodel in \(searched.map(\.bundlePath).joined(separator: ", "))")
        }
        // Bound once, merged: each file's own binding would look the classes up and check them again.
        let models = try files.map { file throws(ModelError) in try unboundModel(contentsOf: file) }
        var seen: [String: URL] = [:]
        for (file, model) in zip(files, models) {
            for entity in model.entities {
                if let earlier = seen.updateValue(file, forKey: entity.entityName) {
                    throw ModelError(ModelError.invalidModelFile, "entity \(entity.entityName) is declared by both \(earlier.path) and \(file.path); the models cannot be merged")
                }
            }
        }
        let merged = ManagedObjectModel(entities: models.flatMap(\.entities))
        for model in models {
            merged.configurationMembers += model.configurationMembers
            merged.fetchRequestTemplates.merge(model.fetchRequestTemplates) { first, _ in first }
        }
        merged.name = models.count == 1 ? models.first?.name : nil
        merged.versionIdentifiers = models.count == 1 ? models.first?.versionIdentifiers ?? [] : []
        try ModelClassBinding(classes: managedObjectClasses,
                              modules: files.flatMap(ModelFileSearch.candidateModules(for:))).bind(merged)
        return merged
    }
}
