import Foundation
@testable import OpenCoreData
import Testing

/// Constraints in the model: derived from declarations, checked by the compiler with errors that
/// say what to change, and part of the schema a store records.
@Suite struct ConstraintModelTests {
    private func compiled() throws -> ManagedObjectModel {
        let model = try ConstraintFixtures.model()
        try model.compile()
        return model
    }

    private func constraints(of name: String, in model: ManagedObjectModel) -> [String] {
        (model.entitiesByName[name]?.constraints ?? []).map(\.description)
    }

    @Test func declarationsBecomeConstraints() throws {
        let model = try compiled()
        #expect(model.entitiesByName["Country"]?.uniquenessConstraints == [["code"]])
        #expect(model.entitiesByName["Fixture"]?.uniquenessConstraints == [["home", "away"]])
        #expect(model.entitiesByName["Badge"]?.uniquenessConstraints == [["city"]])
        #expect(constraints(of: "Country", in: model) == ["Country(code)"])
        // Subentities are covered by their superentity's constraints, once.
        #expect(constraints(of: "Vehicle", in: model) == ["Vehicle(plate)"])
        #expect(constraints(of: "Car", in: model) == ["Vehicle(plate)"])
        #expect(constraints(of: "Truck", in: model) == ["Vehicle(plate)"])
        // A subentity's own constraint covers it alone.
        #expect(constraints(of: "Animal", in: model).isEmpty)
        #expect(constraints(of: "Dog", in: model) == ["Dog(tag)"])
        #expect(constraints(of: "Cat", in: model).isEmpty)
    }

    /// A class-level declaration is inherited by Swift subclasses; the subentity does not get a
    /// second constraint for it.
    @Test func aSubclassInheritingTheDeclarationAddsNothing() throws {
        let model = try ManagedObjectModel(managedObjectClasses: [Shelter.self, Pound.self])
        try model.compile()
        #expect(model.entitiesByName["Pound"]?.uniquenessConstraints == [["name"]])
        #expect(constraints(of: "Pound", in: model) == ["Shelter(name)"])
    }

    /// Each mistake, with what the message must name.
    @Test(arguments: [
        ([["nickname"]], ["Person", "'nickname'", "not a property"]),
        ([["pets"]], ["'pets'", "to-many relationship"]),
        ([["mood"]], ["'mood'", "transient", "make it persistent"]),
        ([[String]()], ["Person", "empty"]),
        ([["name", "name"]], ["'name' twice"]),
    ])
    func theCompilerRefusesConstraintsThatCannotHold(constraints: [[String]], mentions: [String]) throws {
        let person = EntityDescription(name: "Person")
        let pet = EntityDescription(name: "Pet")
        let pets = RelationshipDescription(name: "pets", destination: pet, toMany: true)
        let owner = RelationshipDescription(name: "owner", destination: person)
        pets.inverseRelationship = owner
        owner.inverseRelationship = pets
        let mood = AttributeDescription(name: "mood", type: .string)
        mood.isTransient = true
        person.properties = [AttributeDescription(name: "name", type: .string), mood, pets]
        pet.properties = [owner]
        person.uniquenessConstraints = constraints
        let model = ManagedObjectModel(entities: [person, pet])
        let error = #expect(throws: ModelError.self) { try model.compile() }
        #expect(error?.code == ModelError.invalidConstraint)
        for mention in mentions {
            #expect(error?.message.contains(mention) == true, "\(error?.message ?? "") does not mention \(mention)")
        }
    }

    /// A store made before constraints existed keeps its model hash: a model without constraints
    /// records none.
    @Test func aModelWithoutConstraintsRecordsNone() throws {
        let model = try TestStack(.inMemory).container.managedObjectModel
        let json = String(decoding: try JSONEncoder().encode(ModelSchema(model: model)), as: UTF8.self)
        #expect(!json.contains("uniquenessConstraints"))
        #expect(json.contains("\"name\""))
    }

    @Test func theSchemaCountsConstraints() throws {
        func schema(_ constraints: [[String]]) throws -> ModelSchema {
            let member = EntityDescription(name: "Member")
            member.properties = [AttributeDescription(name: "email", type: .string), AttributeDescription(name: "name", type: .string)]
            member.uniquenessConstraints = constraints
            let model = ManagedObjectModel(entities: [member])
            try model.compile()
            return ModelSchema(model: model)
        }
        let none = try schema([])
        let email = try schema([["email"]])
        let both = try schema([["email", "name"]])
        let reordered = try schema([["name", "email"]])
        #expect(none.versionHash != email.versionHash && email.versionHash != both.versionHash)
        #expect(SchemaMigration(from: none, to: email).steps == [.addUniquenessConstraint(entity: "Member", properties: ["email"])])
        #expect(SchemaMigration(from: email, to: none).steps == [.removeUniquenessConstraint(entity: "Member", properties: ["email"])])
        #expect(SchemaMigration(from: email, to: both).steps == [
            .addUniquenessConstraint(entity: "Member", properties: ["email", "name"]),
            .removeUniquenessConstraint(entity: "Member", properties: ["email"]),
        ])
        // The same properties in another order are the same constraint.
        #expect(SchemaMigration(from: both, to: reordered).isEmpty)
        #expect(SchemaMigration(from: none, to: email).incompatibilities.isEmpty)
    }
}

class Shelter: ManagedObject {
    @Managed var name: String
    override class var uniquenessConstraints: [[String]] { [["name"]] }
}

final class Pound: Shelter {
    @Managed var capacity: Int16 = 0
}
