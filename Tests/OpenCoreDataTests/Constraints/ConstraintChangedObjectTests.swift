import Foundation
@testable import OpenCoreData
import Testing

/// Stored objects whose constrained values change: taking another row's values, exchanging
/// values within one save, and taking the values of a row deleted in the same save.
@Suite struct ConstraintChangedObjectTests {
    /// A store holding France and Germany; returns their IDs.
    private func seeded(_ kind: StoreKind) throws -> (TestStack, france: ManagedObjectID, germany: ManagedObjectID) {
        let stack = try ConstraintFixtures.stack(kind)
        let seeding = stack.newContext()
        let ids = try seeding.performAndWait {
            let france = Country(context: seeding)
            (france.code, france.name, france.population) = ("FR", "France", 68)
            let germany = Country(context: seeding)
            (germany.code, germany.name, germany.population) = ("DE", "Germany", 84)
            let paris = City(context: seeding)
            paris.name = "Paris"
            paris.country = france
            let berlin = City(context: seeding)
            berlin.name = "Berlin"
            berlin.country = germany
            try seeding.save()
            return (france.objectID, germany.objectID)
        }
        return (stack, ids.0, ids.1)
    }

    private func stored(_ stack: TestStack) throws -> [String] {
        let reader = stack.newContext()
        return try reader.performAndWait {
            try reader.all(Country.self, sortedBy: "code").map { country in
                "\(country.code) \(country.name ?? "nil") \(country.population) \(country.cities.map(\.name).sorted())"
            }
        }
    }

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func aStoredObjectTakesTheValuesOfAnother(kind: StoreKind, policy: PolicyKind) throws {
        let (stack, franceID, germanyID) = try seeded(kind)
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let germany = try #require(try context.existingObject(with: germanyID) as? Country)
            germany.code = "FR"
            germany.name = "Deutschland"
            let error = context.saveCatching()
            switch policy {
            case .error:
                let conflict = try #require((error as? ObjectGraphError)?.constraintConflicts.first)
                #expect(conflict.databaseObjectID == franceID && conflict.conflictingObjectIDs == [germanyID])
                #expect(germany.code == "FR" && germany.hasChanges)
            case .storeTrump:
                // The store's values win for the constrained properties; other changes stay.
                #expect(error == nil)
                #expect(germany.code == "DE" && germany.name == "Deutschland")
                #expect(try stored(stack) == ["DE Deutschland 84 [\"Berlin\"]", "FR France 68 [\"Paris\"]"])
            case .rollback:
                #expect(error == nil)
                #expect(germany.code == "DE" && germany.name == "Germany" && !germany.hasChanges)
                #expect(try stored(stack) == ["DE Germany 84 [\"Berlin\"]", "FR France 68 [\"Paris\"]"])
            case .objectTrump, .overwrite:
                // Germany is folded into France: France takes its changes (all its values under
                // overwrite) and its cities; Germany's row goes.
                #expect(error == nil)
                #expect(germany.isDeleted || germany.managedObjectContext == nil)
                let fetched = try context.all(Country.self)
                #expect(fetched.map(\.objectID) == [franceID])
                #expect(context.registeredLive(Country.self) == fetched)
                let population = policy == .overwrite ? 84 : 68
                #expect(try stored(stack) == ["FR Deutschland \(population) [\"Berlin\", \"Paris\"]"])
            }
        }
    }

    @Test(arguments: StoreKind.withPostgres, PolicyKind.allCases)
    func twoStoredObjectsExchangeTheirValues(kind: StoreKind, policy: PolicyKind) throws {
        let (stack, franceID, germanyID) = try seeded(kind)
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let france = try #require(try context.existingObject(with: franceID) as? Country)
            let germany = try #require(try context.existingObject(with: germanyID) as? Country)
            (france.code, germany.code) = ("DE", "FR")
            try context.save()
        }
        #expect(try stored(stack) == ["DE France 68 [\"Paris\"]", "FR Germany 84 [\"Berlin\"]"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func valuesPassAlongAChainOfStoredObjects(kind: StoreKind) throws {
        let (stack, franceID, germanyID) = try seeded(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let france = try #require(try context.existingObject(with: franceID) as? Country)
            let germany = try #require(try context.existingObject(with: germanyID) as? Country)
            // Germany takes France's code, France a new one, and a new country Germany's old one.
            (germany.code, france.code) = ("FR", "FX")
            let newcomer = Country(context: context)
            newcomer.code = "DE"
            try context.save()
        }
        #expect(try stored(stack) == ["DE nil 0 []", "FR Germany 84 [\"Berlin\"]", "FX France 68 [\"Paris\"]"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func aNewObjectTakesTheValuesOfOneDeletedInTheSameSave(kind: StoreKind) throws {
        let (stack, franceID, _) = try seeded(kind)
        let context = stack.newContext()
        try context.performAndWait {
            context.delete(try context.existingObject(with: franceID))
            let newcomer = Country(context: context)
            (newcomer.code, newcomer.name) = ("FR", "République")
            try context.save()
        }
        #expect(try stored(stack) == ["DE Germany 84 [\"Berlin\"]", "FR République 0 []"])
    }

    /// A stored object, loaded and changed here, is the holder a new object is folded into: it
    /// keeps this context's changes to it under store-trump, and they are saved with the fold.
    @Test(arguments: StoreKind.withPostgres, [PolicyKind.objectTrump, .storeTrump])
    func aLoadedAndChangedHolderKeepsItsChanges(kind: StoreKind, policy: PolicyKind) throws {
        let (stack, franceID, _) = try seeded(kind)
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let france = try #require(try context.existingObject(with: franceID) as? Country)
            france.population = 70
            let newcomer = Country(context: context)
            (newcomer.code, newcomer.name) = ("FR", "French Republic")
            try context.save()
            #expect(france.name == (policy == .objectTrump ? "French Republic" : "France"))
            #expect(!france.hasChanges)
        }
        let expected = policy == .objectTrump ? "FR French Republic 0 [\"Paris\"]" : "FR France 70 [\"Paris\"]"
        #expect(try stored(stack) == ["DE Germany 84 [\"Berlin\"]", expected])
    }

    /// A new object's one-to-one partner is not deleted with it (its delete rule cascades): it
    /// follows the holder, or stays on its own when the holder keeps its values.
    @Test(arguments: StoreKind.withPostgres, [PolicyKind.objectTrump, .storeTrump])
    func aFoldedObjectsCascadeDoesNotDeleteWhatItPointsTo(kind: StoreKind, policy: PolicyKind) throws {
        let (stack, franceID, _) = try seeded(kind)
        let context = stack.newContext()
        context.mergePolicy = policy.policy
        try context.performAndWait {
            let newcomer = Country(context: context)
            newcomer.code = "FR"
            let capital = Capital(context: context)
            capital.name = "Paris"
            newcomer.capital = capital
            try context.save()
            #expect(!capital.isDeleted)
            #expect(capital.country?.objectID == (policy == .objectTrump ? franceID : nil))
        }
        let reader = stack.newContext()
        try reader.performAndWait { () throws in
            #expect(try reader.all(Capital.self).count == 1)
        }
    }
}
