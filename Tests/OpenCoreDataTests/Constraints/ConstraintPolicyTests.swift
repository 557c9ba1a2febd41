import Foundation
@testable import OpenCoreData
import Testing

/// Each merge policy against each kind of constraint conflict, on both stores: what the store
/// holds afterwards, what the context holds, and (for the error policy) what the error says.
@Suite struct ConstraintPolicyTests {
    /// What the store holds for a country, read by a fresh context.
    struct StoredCountry: Equatable, CustomStringConvertible {
        var code: String
        var name: String?
        var population: Int64
        var cities: Set<String>

        var description: String { "\(code) \(name ?? "nil") \(population) \(cities.sorted())" }
    }

    private func storedCountries(_ stack: TestStack) throws -> [StoredCountry] {
        let reader = stack.newContext()
        return try reader.performAndWait {
            try reader.all(Country.self, sortedBy: "code").map { country in
                StoredCountry(code: country.code, name: country.name, population: country.population,
                              cities: Set(country.cities.map(\.name)))
            }
        }
    }

    private func expectConstraintError(_ error: (any Error)?, _ check: (ObjectGraphError) throws -> Void) throws {
        let conflict = try #require(error as? ObjectGraphError, "expected a constraint conflict, got \(String(describing: error))")
        #expect(conflict.code == ObjectGraphError.constraintConflict)
        try check(conflict)
    }

    // MARK: A new object meets a stored one

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func aNewObjectMeetsAStoredOne(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let seeding = stack.newContext()
        let storedID = try seeding.performAndWait {
            let brazil = Country(context: seeding)
            brazil.code = "BR"
            brazil.name = "Brazil"
            brazil.population = 200
            City(context: seeding).name = "Rio"
            brazil.cities = Set(try seeding.all(City.self))
            try seeding.save()
            return brazil.objectID
        }
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let newcomer = Country(context: context)
            newcomer.code = "BR"
            newcomer.name = "Brasil"
            newcomer.population = 7
            let recife = City(context: context)
            recife.name = "Recife"
            recife.country = newcomer
            let error = context.saveCatching()

            if policy == .error {
                try expectConstraintError(error) { error in
                    let conflict = try #require(error.constraintConflicts.first)
                    #expect(error.constraintConflicts.count == 1)
                    #expect(conflict.constraint == ["code"] && conflict.entityName == "Country")
                    #expect(conflict.constraintValues["code"] as? String == "BR")
                    #expect(conflict.databaseObjectID == storedID)
                    #expect(conflict.databaseSnapshot?["name"] as? String == "Brazil")
                    #expect(conflict.databaseSnapshot?["population"] as? Int64 == 200)
                    #expect(conflict.conflictingObjectIDs == [newcomer.objectID])
                    #expect("\(error)".contains("Country(code) with code = \"BR\""))
                }
                // Nothing was written; the context keeps its changes.
                #expect(newcomer.isInserted && context.hasChanges)
                #expect(try storedCountries(stack) == [StoredCountry(code: "BR", name: "Brazil", population: 200, cities: ["Rio"])])
                return
            }
            #expect(error == nil)
            // The new object was folded into the stored one, which the context now holds; the
            // new city moved over with it.
            #expect(newcomer.isDeleted || newcomer.managedObjectContext == nil || !context.registeredObjects.contains(newcomer))
            let countries = context.registeredLive(Country.self)
            #expect(countries.map(\.objectID) == [storedID])
            #expect(recife.country?.objectID == storedID)
            let expected = policy.newcomerWins
                ? StoredCountry(code: "BR", name: "Brasil", population: 7, cities: ["Rio", "Recife"])
                : StoredCountry(code: "BR", name: "Brazil", population: 200, cities: ["Rio", "Recife"])
            #expect(try storedCountries(stack) == [expected])
            #expect(!context.hasChanges)
        }
    }

    // MARK: Two new objects of one save

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func twoNewObjectsOfOneSave(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let first = Country(context: context)
            first.code = "AR"
            first.name = "A1"
            first.population = 1
            let second = Country(context: context)
            second.code = "AR"
            second.name = "A2"
            second.population = 2
            let city = City(context: context)
            city.name = "Rosario"
            city.country = second
            let error = context.saveCatching()

            if policy == .error {
                try expectConstraintError(error) { error in
                    let conflict = try #require(error.constraintConflicts.first)
                    #expect(conflict.databaseObjectID == nil && conflict.databaseSnapshot == nil)
                    #expect(conflict.conflictingObjectIDs == [first.objectID, second.objectID])
                    #expect(conflict.constraintValues["code"] as? String == "AR")
                }
                #expect(try storedCountries(stack).isEmpty)
                #expect(first.isInserted && second.isInserted)
                return
            }
            #expect(error == nil)
            // As if saved one after the other: the first keeps the row, the second meets it.
            #expect(context.registeredLive(Country.self).map(\.objectID) == [first.objectID])
            #expect(city.country === first)
            let expected = policy.newcomerWins
                ? StoredCountry(code: "AR", name: "A2", population: 2, cities: ["Rosario"])
                : StoredCountry(code: "AR", name: "A1", population: 1, cities: ["Rosario"])
            #expect(try storedCountries(stack) == [expected])
        }
    }

    // MARK: Compound constraints

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func aCompoundConstraintConflictsOnlyWhenEveryValueMatches(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let seeding = stack.newContext()
        try seeding.performAndWait {
            let fixture = Fixture(context: seeding)
            (fixture.home, fixture.away, fixture.round) = ("A", "B", 1)
            try seeding.save()
        }
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            for (home, away, round) in [("A", "B", Int16(2)), ("B", "A", 3), ("A", "C", 4)] {
                let fixture = Fixture(context: context)
                (fixture.home, fixture.away, fixture.round) = (home, away, round)
                fixture.score = "\(round)-0"
            }
            let error = context.saveCatching()
            if policy == .error {
                try expectConstraintError(error) { error in
                    #expect(error.constraintConflicts.count == 1)
                    let conflict = try #require(error.constraintConflicts.first)
                    #expect(conflict.constraint == ["home", "away"])
                    #expect(conflict.constraintValues["home"] as? String == "A" && conflict.constraintValues["away"] as? String == "B")
                }
                return
            }
            #expect(error == nil)
        }
        guard policy != .error else { return }
        let reader = stack.newContext()
        let rows = try reader.performAndWait {
            try reader.all(Fixture.self, sortedBy: "round").map { "\($0.home)-\($0.away) r\($0.round) \($0.score ?? "nil")" }
        }
        let ab = policy.newcomerWins ? "A-B r2 2-0" : "A-B r1 nil"
        #expect(Set(rows) == [ab, "B-A r3 3-0", "A-C r4 4-0"])
    }

    // MARK: Entity hierarchies

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func aConstraintOfTheRootEntityCoversItsSubentities(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let seeding = stack.newContext()
        let carID = try seeding.performAndWait {
            let car = Car(context: seeding)
            car.plate = "X1"
            car.owner = "Ann"
            try seeding.save()
            return car.objectID
        }
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let truck = Truck(context: context)
            truck.plate = "X1"
            truck.owner = "Ben"
            truck.axles = 3
            let error = context.saveCatching()
            if policy == .error {
                try expectConstraintError(error) { error in
                    let conflict = try #require(error.constraintConflicts.first)
                    #expect(conflict.entityName == "Vehicle" && conflict.databaseObjectID == carID)
                }
                return
            }
            #expect(error == nil)
        }
        guard policy != .error else { return }
        let reader = stack.newContext()
        try reader.performAndWait {
            let vehicles = try reader.all(Vehicle.self)
            // The stored car keeps its row and its entity; it takes the properties the truck
            // shares with it when the newcomer wins.
            #expect(vehicles.map(\.objectID) == [carID])
            #expect(vehicles.first?.owner == (policy.newcomerWins ? "Ben" : "Ann"))
        }
    }

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func aConstraintOfASubentityCoversItAlone(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            Dog(context: context).tag = "T"
            Cat(context: context).tag = "T"
            Cat(context: context).tag = "T"
            #expect(context.saveCatching() == nil)
            #expect(try context.all(Animal.self).count == 3)
            Dog(context: context).tag = "T"
            let error = context.saveCatching()
            if policy == .error {
                try expectConstraintError(error) { error in
                    #expect(error.constraintConflicts.first?.entityName == "Dog")
                }
            } else {
                #expect(error == nil)
            }
        }
        let reader = stack.newContext()
        try reader.performAndWait { () throws in
            #expect(try reader.all(Dog.self).count == 1)
            #expect(try reader.all(Cat.self).count == 2)
        }
    }

    // MARK: Nil values, to-one relationships

    @Test(arguments: StoreKind.withPostgres)
    func nilValuesNeverConflict(kind: StoreKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            for handle in ["a", "b", "c"] { Account(context: context).handle = handle }
            try context.save()
            Account(context: context).handle = "d"
            try context.save()
            #expect(try context.all(Account.self).count == 4)
            let first = Account(context: context)
            first.email = "x@y"
            let second = Account(context: context)
            second.email = "x@y"
            let error = try #require(context.saveCatching() as? ObjectGraphError)
            #expect(error.code == ObjectGraphError.constraintConflict)
        }
    }

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func aConstrainedToOneRelationshipConflictsOnTheSameDestination(kind: StoreKind, policy: PolicyKind) throws {
        let stack = try ConstraintFixtures.stack(kind)
        let seeding = stack.newContext()
        let (cityID, goldID) = try seeding.performAndWait {
            let city = City(context: seeding)
            city.name = "Rio"
            let gold = Badge(context: seeding)
            gold.label = "gold"
            gold.city = city
            Badge(context: seeding).label = "unset"
            Badge(context: seeding).label = "unset too"
            try seeding.save()
            return (city.objectID, gold.objectID)
        }
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let silver = Badge(context: context)
            silver.label = "silver"
            silver.city = try #require(try context.existingObject(with: cityID) as? City)
            let error = context.saveCatching()
            if policy == .error {
                try expectConstraintError(error) { error in
                    let conflict = try #require(error.constraintConflicts.first)
                    #expect(conflict.constraintValues["city"] as? ManagedObjectID == cityID)
                    #expect(conflict.databaseObjectID == goldID)
                }
                return
            }
            #expect(error == nil)
        }
        guard policy != .error else { return }
        let reader = stack.newContext()
        try reader.performAndWait {
            let badges = try reader.all(Badge.self).filter { $0.city != nil }
            #expect(badges.map(\.objectID) == [goldID])
            #expect(badges.first?.label == (policy.newcomerWins ? "silver" : "gold"))
            #expect(try reader.all(Badge.self).count == 3)
        }
    }
}
