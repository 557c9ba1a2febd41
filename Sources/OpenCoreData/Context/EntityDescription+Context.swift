extension EntityDescription {
    /// The entity named `name` in the model of `context`'s coordinator, or nil.
    public static func entity(forEntityName name: String, in context: ManagedObjectContext) -> EntityDescription? {
        context.managedObjectModel.compiledEntity(named: name)
    }

    /// Creates an object of the entity named `name` and inserts it into `context`.
    ///
    /// ```swift
    /// let team = try EntityDescription.insertNewObject(forEntityName: "Team", into: context)
    /// team.setValue("Brazil", forKey: "teamName")
    /// ```
    ///
    /// - Throws: ``ObjectGraphError/unknownEntity`` if the model has no such entity, and
    ///   ``ObjectGraphError/abstractEntity`` if the entity is abstract. (Core Data raises an
    ///   exception for both.)
    public static func insertNewObject(forEntityName name: String, into context: ManagedObjectContext) throws -> ManagedObject {
        guard let entity = entity(forEntityName: name, in: context) else {
            throw ObjectGraphError(ObjectGraphError.unknownEntity, "the model has no entity named '\(name)'")
        }
        guard !entity.isAbstract else {
            throw ObjectGraphError(ObjectGraphError.abstractEntity, "entity \(name) is abstract; insert one of its subentities")
        }
        return entity.managedObjectClass.init(entity: entity, insertInto: context)
    }
}
