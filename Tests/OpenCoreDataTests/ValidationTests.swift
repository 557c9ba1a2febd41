import Foundation
import OpenCoreData
import Testing

@Suite struct ValidationTests {
    private func count(_ stack: TestStack) throws -> Int {
        let reader = stack.newContext()
        return try reader.performAndWait { try reader.count(for: Team.fetchRequest()) + reader.count(for: Item.fetchRequest()) }
    }

    @Test(arguments: StoreKind.withPostgres)
    func everyMissingRequiredValueIsListedAndNothingIsWritten(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let (error, team, item) = context.performAndWait {
            let team = Team(context: context)
            let item = Item(context: context)
            let saved = Item(context: context)
            saved.name = "fine on its own"
            return (#expect(throws: ValidationError.self) { try context.save() }, team, item)
        }
        let failures = try #require(error).failures
        #expect(error?.code == ValidationError.multipleErrors)
        #expect(Set(failures.map { "\($0.entityName).\($0.key ?? "")" }) == ["Team.teamName", "Team.qualifyingZone", "Item.name"])
        #expect(failures.allSatisfy { $0.code == ValidationError.missingMandatoryProperty })
        #expect(try count(stack) == 0)
        try context.performAndWait {
            team.teamName = "Qatar"
            team.qualifyingZone = "AFC"
            item.name = "eggs"
            try context.save()
        }
        #expect(try count(stack) == 3)
    }

    @Test(arguments: StoreKind.withPostgres)
    func refusedAssignmentsFailTheSaveAndKeepTheOldValue(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let error = context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Oman"
            team.qualifyingZone = "AFC"
            team.setValue("lots", forKey: "wins")
            team.setValue(40_000, forKey: "wins")
            team.setValue(1, forKey: "noSuchKey")
            #expect(team.wins == 0)
            return #expect(throws: ValidationError.self) { try context.save() }
        }
        // The second refused assignment to wins replaces the first: only the latest one stands.
        let messages = try #require(error).failures.map(\.description)
        #expect(messages.count == 2)
        #expect(messages[0].contains("Team.wins") && messages[0].contains("40000"))
        #expect(messages[1].contains("noSuchKey"))
        #expect(try count(stack) == 0)
        // Rolling back clears the refused assignments.
        try context.performAndWait {
            context.rollback()
            #expect(!context.hasChanges)
            try context.save()
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func aRefusedAssignmentAloneStillFailsTheSave(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let error = try context.performAndWait {
            let item = Item(context: context)
            item.name = "tea"
            try context.save()
            item.setValue("yes", forKey: "done")
            #expect(context.hasChanges)
            return #expect(throws: ValidationError.self) { try context.save() }
        }
        #expect(error?.failures.map(\.key) == ["done"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func relationshipsAcrossContextsAreRefused(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let first = stack.newContext()
        let second = stack.newContext()
        let team = first.performAndWait {
            let team = Team(context: first)
            team.teamName = "Iraq"
            team.qualifyingZone = "AFC"
            return team
        }
        let error = second.performAndWait {
            let player = Player(context: second)
            player.name = "Ali"
            player.team = team
            #expect(player.team == nil)
            return #expect(throws: ValidationError.self) { try second.save() }
        }
        #expect(error?.failures.first?.key == "team")
    }

    @Test(arguments: StoreKind.withPostgres)
    func countLimitsAndCustomHooks(kind: StoreKind) throws {
        final class Squad: ManagedObject {
            @Managed var name: String
            @Managed(inverse: "squad", minCount: 1, maxCount: 2) var members: Set<Member>

            override func validateForInsert() throws {
                try super.validateForInsert()
                if name.hasPrefix("x") {
                    throw ValidationError(self, key: "name", message: "must not start with x")
                }
            }
        }
        final class Member: ManagedObject {
            @Managed var name: String
            @Managed(inverse: "members") var squad: Squad?
        }
        let model = try ManagedObjectModel(managedObjectClasses: [Squad.self, Member.self])
        let stack = try TestStack(kind, model: model)
        let context = stack.newContext()
        let codes = context.performAndWait {
            let empty = Squad(context: context)
            empty.name = "xmen"
            let full = Squad(context: context)
            full.name = "full"
            for name in ["a", "b", "c"] {
                let member = Member(context: context)
                member.name = name
                member.squad = full
            }
            let error = #expect(throws: ValidationError.self) { try context.save() }
            return Set(error?.failures.map(\.code.rawValue) ?? [])
        }
        #expect(codes == [ValidationError.relationshipLacksMinimumCount.rawValue,
                          ValidationError.relationshipExceedsMaximumCount.rawValue,
                          ValidationError.invalidValue.rawValue])
    }
}

