/// Reads a `<relationship>` element into a ``RelationshipDescription`` whose destination and
/// inverse are names, resolved when the model is compiled.
enum ModelFileRelationship {
    private static let deleteRulesByName: [String: DeleteRule] = [
        "Nullify": .nullify, "Cascade": .cascade, "Deny": .deny, "No Action": .noAction,
    ]

    static func read(_ element: ModelFileElement, entityName: String) throws(ModelError) -> RelationshipDescription {
        var (name, fields) = try ModelFileAttributes.named(element, unnamed: "entity \(entityName), relationship") {
            "relationship \(entityName).\($0)"
        }
        let ruleName = fields.string("deletionRule") ?? "Nullify"
        guard let rule = deleteRulesByName[ruleName] else {
            throw ModelError(ModelError.invalidModelFile, "\(fields.place): deletionRule=\"\(ruleName)\" is none of \(deleteRulesByName.keys.sorted().joined(separator: ", "))")
        }
        let isToMany = try fields.flag("toMany")
        let relationship = RelationshipDescription(name: name, toMany: isToMany, deleteRule: rule,
                                                   isOptional: try fields.flag("optional"))
        relationship.minCount = try fields.integer("minCount") ?? 0
        // Xcode writes maxCount="1" on every to-one, and leaves it out for an unbounded to-many.
        let maxCount = try fields.integer("maxCount")
        if isToMany, let maxCount {
            guard maxCount != 1 else {
                throw ModelError(ModelError.invalidModelFile, "\(fields.place) is to-many with maxCount 1; make it to-one")
            }
            relationship.maxCount = maxCount
        }
        relationship.isOrdered = try fields.flag("ordered")
        relationship.isTransient = try fields.flag("transient")
        let destination = try fields.required("destinationEntity")
        relationship.destinationEntityName = destination
        relationship.inverseName = fields.string("inverseName")
        if let inverseEntity = fields.string("inverseEntity"), inverseEntity != destination {
            throw ModelError(ModelError.inverseMismatch, "\(fields.place) points to \(destination) but names its inverse on \(inverseEntity)")
        }
        relationship.renamingIdentifier = fields.string("renamingIdentifier")
        relationship.versionHashModifier = fields.string("versionHashModifier")
        fields.ignore(["elementID", "syncable", "spotlightIndexingEnabled"])
        try fields.finish()
        try element.requireChildren(among: ["userInfo"], place: fields.place)
        relationship.userInfo = try ModelFileUserInfo.read(element, place: fields.place)
        return relationship
    }
}
