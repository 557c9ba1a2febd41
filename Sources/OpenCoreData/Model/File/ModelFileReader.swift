import Foundation

/// Turns a model file's root `<model>` element into a ``ManagedObjectModel``: entities and their
/// inheritance, configurations and fetch request templates. Every element and attribute is
/// either read, or known to change nothing outside Xcode's editor, or refused by name.
enum ModelFileReader {
    /// The model `root` declares, named after its package, with every entity's objects still
    /// plain ``ManagedObject``s (``ModelClassBinding`` binds classes).
    static func model(from root: ModelFileElement, in package: ModelFilePackage) throws(ModelError) -> ManagedObjectModel {
        let file = package.contentsURL
        let place = "model \(file.path)"
        guard root.name == "model" else {
            throw ModelError(ModelError.invalidModelFile, "\(file.path) is not a Core Data model: its root element is <\(root.name)>, not <model>")
        }
        var fields = ModelFileAttributes(root, place: place)
        if let type = fields.string("type"), type != "com.apple.IDECoreDataModeler.DataModel" {
            throw ModelError(ModelError.invalidModelFile, "\(place) is of type \(type), not a Core Data model")
        }
        let versionIdentifier = fields.string("userDefinedModelVersionIdentifier") ?? ""
        fields.ignore(["documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
                       "sourceLanguage", "usedWithCloudKit", "usedWithSwiftData", "iOSVersion", "macOSVersion"])
        try fields.finish()
        try root.requireChildren(among: ["entity", "configuration", "fetchRequest", "elements"], place: place)

        let reads = try root.children(named: "entity").map { element throws(ModelError) in try ModelFileEntity.read(element) }
        let byName = Dictionary(reads.map { ($0.entity.entityName, $0.entity) }, uniquingKeysWith: { first, _ in first })
        for read in reads {
            guard let parentName = read.parentName else { continue }
            guard let parent = byName[parentName] else {
                throw ModelError(ModelError.invalidInheritance, "entity \(read.entity.entityName) names parentEntity \(parentName), which is not an entity of \(file.path)")
            }
            parent.subentities.append(read.entity)
        }
        let model = ManagedObjectModel(entities: reads.map(\.entity))
        model.name = package.modelName
        if !versionIdentifier.isEmpty { model.versionIdentifiers = [versionIdentifier] }
        for configuration in root.children(named: "configuration") {
            let (name, members) = try self.configuration(configuration, byName: byName, place: place)
            model.setEntities(members, forConfigurationName: name)
        }
        for template in root.children(named: "fetchRequest") {
            let (name, request) = try fetchRequestTemplate(template, place: place)
            model.setFetchRequestTemplate(request, forName: name)
        }
        return model
    }

    private static func configuration(_ element: ModelFileElement, byName: [String: EntityDescription],
                                      place: String) throws(ModelError) -> (String, [EntityDescription]) {
        var fields = ModelFileAttributes(element, place: "\(place), configuration (line \(element.line))")
        let name = try fields.required("name")
        fields.ignore(["usedWithCloudKit"])
        try fields.finish()
        try element.requireChildren(among: ["memberEntity"], place: "\(place), configuration \(name)")
        var members: [EntityDescription] = []
        for member in element.children {
            var memberFields = ModelFileAttributes(member, place: "\(place), configuration \(name) (line \(member.line))")
            let entityName = try memberFields.required("name")
            try memberFields.finish()
            guard let entity = byName[entityName] else {
                throw ModelError(ModelError.invalidModelFile, "\(memberFields.place) names entity \(entityName), which the model does not have")
            }
            members.append(entity)
        }
        return (name, members)
    }

    /// A model-level `<fetchRequest>`: a named template (``ManagedObjectModel/fetchRequestTemplate(forName:)``).
    private static func fetchRequestTemplate(_ element: ModelFileElement,
                                             place: String) throws(ModelError) -> (String, FetchRequest<ManagedObject>) {
        var (name, fields) = try ModelFileAttributes.named(element, unnamed: "\(place), fetch request") {
            "\(place), fetch request \($0)"
        }
        let request = FetchRequest<ManagedObject>(entityName: try fields.required("entity"))
        if let format = fields.string("predicateString") {
            do {
                request.predicate = try FetchPredicate(format: format, argumentArray: nil)
            } catch {
                throw ModelError(ModelError.invalidModelFile, "\(fields.place): predicateString \"\(format)\" does not parse: \(error)")
            }
        }
        request.fetchLimit = try fields.integer("fetchLimit") ?? 0
        request.fetchBatchSize = try fields.integer("fetchBatchSize") ?? 0
        request.includesSubentities = try fields.flag("includeSubentities", default: true)
        request.returnsObjectsAsFaults = try fields.flag("returnObjectsAsFaults", default: true)
        request.returnsDistinctResults = try fields.flag("returnDistinctResults")
        request.includesPendingChanges = try fields.flag("includesPendingChanges", default: true)
        try fields.finish()
        try element.requireChildren(among: [], place: fields.place)
        return (name, request)
    }
}
