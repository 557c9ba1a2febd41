import Foundation
import OpenCoreData
import Testing

/// `@Managed` properties of `Codable` types, kept as JSON in transformable attributes.
@Suite struct CodableAttributeTests {
    struct Settings: Codable, Equatable, ManagedCodableValue {
        var theme: String
        var fontSize: Int
        var favourites: [String: Double] = [:]
    }

    final class Account: ManagedObject {
        @Managed var name: String
        @Managed var settings: Settings?
        @Managed var tags: [String]? = ["new"]
        @Managed var scores: [String: Int]?
    }

    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: [Account.self])
    }

    @Test func aCodablePropertyIsATransformableAttribute() throws {
        let entity = try #require(try Self.model().entitiesByName["Account"])
        let settings = try #require(entity.attributesByName["settings"])
        #expect(settings.attributeType == .transformableAttributeType)
        #expect(settings.isOptional && settings.valueTransformerName == nil)
        #expect(settings.attributeValueClassName == "Settings")
        #expect(entity.attributesByName["tags"]?.attributeType == .transformable)
    }

    @Test(arguments: StoreKind.withPostgres)
    func codableValuesRoundTripThroughEveryStore(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let written = Settings(theme: "dark", fontSize: 14, favourites: ["tea": 2.5, "coffee": 1])
        let context = stack.newContext()
        try context.performAndWait {
            let account = Account(context: context)
            account.name = "ada"
            #expect(account.tags == ["new"], "the declared default")
            account.settings = written
            account.scores = ["chess": 3, "go": -1]
            let plain = Account(context: context)
            plain.name = "bob"
            plain.tags = nil
            try context.save()
        }
        // A relaunch, where the store outlives the process.
        let reopened = kind == .inMemory ? stack : try stack.reopened(model: try Self.model())
        let fresh = reopened.newContext()
        try fresh.performAndWait {
            let accounts = try fresh.all(Account.self, sortedBy: "name")
            try #require(accounts.map(\.name) == ["ada", "bob"])
            #expect(accounts[0].settings == written)
            #expect(accounts[0].tags == ["new"] && accounts[0].scores == ["chess": 3, "go": -1])
            #expect(accounts[1].settings == nil && accounts[1].tags == nil && accounts[1].scores == nil)
            // Key-value coding reads the same values.
            #expect(accounts[0].value(forKey: "settings") as? Settings == written)
            #expect(accounts[0].value(forKey: "tags") as? [String] == ["new"])

            let unset = FetchRequest<Account>(entityName: "Account")
            unset.predicate = try FetchPredicate(format: "settings == nil")
            #expect(try fresh.fetch(unset).map(\.name) == ["bob"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changesReportDecodedValues(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let context = stack.newContext()
        try context.performAndWait {
            let account = Account(context: context)
            account.name = "ada"
            account.settings = Settings(theme: "light", fontSize: 12, favourites: ["a": 1, "b": 2, "c": 3])
            try context.save()

            #expect(!account.hasChanges)
            account.settings?.fontSize = 18
            #expect(account.hasChanges)
            #expect((account.changedValues()["settings"] as? Settings)?.fontSize == 18)
            #expect((account.committedValues(forKeys: ["settings"])["settings"] as? Settings)?.fontSize == 12)
            context.rollback()
            #expect(account.settings?.fontSize == 12)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSavedValueReachesAnotherContextThroughTheMerge(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let writer = stack.newContext()
        let reader = stack.newContext()
        reader.automaticallyMergesChangesFromParent = true
        let id = try writer.performAndWait {
            let account = Account(context: writer)
            account.name = "ada"
            try writer.save()
            return account.objectID
        }
        try reader.performAndWait {
            let account = try #require(reader.object(with: id) as? Account)
            #expect(account.scores == nil)
        }
        try writer.performAndWait {
            let account = try #require(writer.object(with: id) as? Account)
            account.scores = ["merged": 1]
            try writer.save()
        }
        try reader.performAndWait {
            let account = try #require(reader.object(with: id) as? Account)
            #expect(account.scores == ["merged": 1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aValueOfAnotherTypeIsRefusedAtSave(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let context = stack.newContext()
        try context.performAndWait {
            let account = Account(context: context)
            account.name = "ada"
            account.settings = Settings(theme: "dark", fontSize: 10)
            try context.save()

            account.setValue(Date(), forKey: "settings")
            let error = #expect(throws: ValidationError.self) { try context.save() }
            #expect(error?.failures.first?.key == "settings")
            #expect(error?.failures.first?.message.contains("is not Settings") == true, "\(String(describing: error))")
            #expect(throws: ValidationError.self) { try account.validateValue([1, 2], forKey: "settings") }
            try account.validateValue(Settings(theme: "x", fontSize: 1), forKey: "settings")
        }
        // Nothing already saved is lost.
        let fresh = stack.newContext()
        let saved = try fresh.performAndWait { try fresh.all(Account.self).first?.settings }
        #expect(saved == Settings(theme: "dark", fontSize: 10))
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchInsertTransformsItsValues(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let context = stack.newContext()
        try context.performAndWait {
            let request = BatchInsertRequest(entityName: "Account", objects: [
                ["name": "ada", "tags": ["x", "y"]],
                ["name": "bob"],
            ])
            _ = try context.execute(request)
            let accounts = try context.all(Account.self, sortedBy: "name")
            #expect(accounts.map(\.tags) == [["x", "y"], ["new"]])
        }
    }
}
