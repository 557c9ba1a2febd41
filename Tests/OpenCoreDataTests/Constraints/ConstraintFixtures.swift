import Foundation
@testable import OpenCoreData
import Testing

// Entities with uniqueness constraints, in a model of their own (the shared fixtures' entities
// have none, and the other suites rely on that).

/// A one-attribute constraint, declared on the property.
final class Country: ManagedObject {
    @Managed(unique: true) var code: String
    @Managed var name: String?
    @Managed var population: Int64 = 0
    @Managed(inverse: "country", deleteRule: .cascade) var cities: Set<City>
    @Managed(inverse: "country", deleteRule: .cascade) var capital: Capital?
}

final class City: ManagedObject {
    @Managed var name: String
    @Managed(inverse: "cities") var country: Country?
    @Managed(inverse: "city") var badges: Set<Badge>
}

/// A one-to-one partner of a country, deleted with it.
final class Capital: ManagedObject {
    @Managed var name: String
    @Managed(inverse: "capital") var country: Country?
}

/// A constraint on a to-one relationship: one badge per city.
final class Badge: ManagedObject {
    @Managed var label: String
    @Managed(inverse: "badges", unique: true) var city: City?
}

/// A compound constraint, declared on the class.
final class Fixture: ManagedObject {
    @Managed var home: String
    @Managed var away: String
    @Managed var round: Int16 = 0
    @Managed var score: String?

    override class var uniquenessConstraints: [[String]] { [["home", "away"]] }
}

/// A constraint of the root entity covers its subentities: a car and a truck cannot share a plate.
class Vehicle: ManagedObject {
    @Managed(unique: true) var plate: String
    @Managed var owner: String?
}

final class Car: Vehicle {
    @Managed var doors: Int16 = 4
}

final class Truck: Vehicle {
    @Managed var axles: Int16 = 2
}

/// A constraint declared by a subentity covers it alone: dogs have unique tags, cats may share
/// them with dogs and with each other.
class Animal: ManagedObject {
    @Managed var tag: String
    @Managed var note: String?
}

final class Dog: Animal {
    override class var uniquenessConstraints: [[String]] { [["tag"]] }
}

final class Cat: Animal {}

/// An optional attribute under a constraint: nil never conflicts.
final class Account: ManagedObject {
    @Managed(unique: true) var email: String?
    @Managed var handle: String = ""
}

enum ConstraintFixtures {
    static let classes: [ManagedObject.Type] = [
        Country.self, City.self, Capital.self, Badge.self, Fixture.self, Vehicle.self, Car.self, Truck.self,
        Animal.self, Dog.self, Cat.self, Account.self,
    ]

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: classes)
    }

    static func stack(_ kind: StoreKind, directory: TemporaryDirectory = TemporaryDirectory()) throws -> TestStack {
        try TestStack(kind, model: try model(), directory: directory)
    }
}

/// The merge policies, for parameterised tests.
enum PolicyKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case error, objectTrump, storeTrump, overwrite, rollback

    var policy: MergePolicy {
        switch self {
        case .error: .error
        case .objectTrump: .mergeByPropertyObjectTrump
        case .storeTrump: .mergeByPropertyStoreTrump
        case .overwrite: .overwrite
        case .rollback: .rollback
        }
    }

    /// Whether the holder of the values takes the newcomer's (object-trump, overwrite).
    var newcomerWins: Bool { self == .objectTrump || self == .overwrite }

    var testDescription: String { rawValue }
}

extension ManagedObjectContext {
    /// Saves, returning the error instead of throwing it.
    func saveCatching() -> (any Error)? {
        do {
            try save()
            return nil
        } catch {
            return error
        }
    }

    /// Every registered object of an entity class that is not deleted, checking that no two
    /// stand for one row (the context's uniquing).
    func registeredLive<T: ManagedObject>(_ type: T.Type) -> [T] {
        let objects = registeredObjects.compactMap { $0 as? T }.filter { !$0.isDeleted }
        #expect(Set(objects.map(\.objectID)).count == objects.count, "two registered objects share an ID")
        return objects
    }
}
