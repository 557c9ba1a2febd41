import OpenCoreData

/// The class of Garden.xcdatamodeld's Bed entity, whose Codegen is Category/Extension: the app
/// writes the class, `ocd generate` its properties (Generated/GardenBed+CoreDataProperties.swift).
final class GardenBed: ManagedObject {
    override class var entityName: String { "Bed" }
}
