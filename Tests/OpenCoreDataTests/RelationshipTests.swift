import Foundation
import OpenCoreData
import Testing

@Suite struct RelationshipTests {
    private func team(_ name: String, in context: ManagedObjectContext) -> Team {
        let team = Team(context: context)
        team.teamName = name
        team.qualifyingZone = "UEFA"
        return team
    }

    private func player(_ name: String, in context: ManagedObjectContext) -> Player {
        let player = Player(context: context)
        player.name = name
        return player
    }

    @Test(arguments: StoreKind.withPostgres)
    func oneToManyInversesStayInStepAndPersist(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let spain = team("Spain", in: context)
            let italy = team("Italy", in: context)
            let pedri = player("Pedri", in: context)
            pedri.team = spain
            #expect(spain.players == [pedri])
            pedri.team = italy
            #expect(spain.players.isEmpty && italy.players == [pedri])
            italy.players = []
            #expect(pedri.team == nil)
            spain.players.insert(pedri)
            #expect(pedri.team === spain)
            try context.save()
        }
        // A fresh context reads both ends from the store.
        let reader = stack.newContext()
        try reader.performAndWait {
            let teams = try reader.all(Team.self, sortedBy: "teamName")
            #expect(teams.map(\.teamName) == ["Italy", "Spain"])
            #expect(teams[0].players.isEmpty)
            #expect(teams[1].players.map(\.name) == ["Pedri"])
            #expect(try reader.all(Player.self)[0].team === teams[1])
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func oneToOneReassignmentClearsThePreviousPartner(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let france = team("France", in: context)
            let england = team("England", in: context)
            let coach = Coach(context: context)
            coach.name = "Didier"
            france.coach = coach
            #expect(coach.team === france)
            england.coach = coach
            #expect(france.coach == nil && coach.team === england)
            try context.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let coach = try reader.all(Coach.self)[0]
            #expect(coach.team?.teamName == "England")
            #expect(try reader.all(Team.self, sortedBy: "teamName").map { $0.coach?.name } == ["Didier", nil])
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func manyToManyUsesBothEnds(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let ana = player("Ana", in: context)
            let bea = player("Bea", in: context)
            let north = Club(context: context)
            north.name = "North"
            let south = Club(context: context)
            south.name = "South"
            ana.clubs = [north, south]
            south.players.insert(bea)
            #expect(north.players == [ana] && south.players == [ana, bea] && bea.clubs == [south])
            try context.save()
            ana.clubs.remove(south)
            try context.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let clubs = try reader.all(Club.self, sortedBy: "name")
            #expect(clubs[0].players.map(\.name) == ["Ana"])
            #expect(clubs[1].players.map(\.name) == ["Bea"])
            let players = try reader.all(Player.self, sortedBy: "name")
            #expect(players[0].clubs.map(\.name) == ["North"])
        }
    }

    /// A to-many not loaded yet records changes without reading its members: adding an object
    /// that was already a member and then removing it must still remove it.
    @Test(arguments: StoreKind.withPostgres)
    func addingThenRemovingAMemberOfAnUnloadedToManyRemovesIt(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let writer = stack.newContext()
        try writer.performAndWait {
            let club = Club(context: writer)
            club.name = "North"
            let team = team("Spain", in: writer)
            for name in ["Ana", "Bea"] {
                let member = player(name, in: writer)
                member.clubs = [club]
                member.team = team
            }
            try writer.save()
        }
        let editor = stack.newContext()
        try editor.performAndWait {
            // Fetched objects start with their to-manys unloaded; the mutable sets do not load them.
            let club = try editor.all(Club.self)[0]
            let team = try editor.all(Team.self)[0]
            let ana = try #require(try editor.all(Player.self).first { $0.name == "Ana" })
            for (owner, key) in [(club as ManagedObject, "players"), (team, "players")] {
                let members = owner.mutableSetValue(forKey: key)
                members.add(ana)
                members.remove(ana)
            }
            #expect(club.players.map(\.name) == ["Bea"] && ana.clubs.isEmpty)
            #expect(team.players.map(\.name) == ["Bea"] && ana.team == nil)
            try editor.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            #expect(try reader.all(Club.self)[0].players.map(\.name) == ["Bea"])
            #expect(try reader.all(Team.self)[0].players.map(\.name) == ["Bea"])
            let ana = try #require(try reader.all(Player.self).first { $0.name == "Ana" })
            #expect(ana.clubs.isEmpty && ana.team == nil)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func cascadeDeletesPlayersAndNullifyClearsTheCoach(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let germany = team("Germany", in: context)
            germany.players = [player("Thomas", in: context), player("Manuel", in: context)]
            let coach = Coach(context: context)
            coach.name = "Julian"
            germany.coach = coach
            let club = Club(context: context)
            club.name = "Bayern"
            club.players = germany.players
            try context.save()
        }
        let deleter = stack.newContext()
        try deleter.performAndWait {
            let germany = try deleter.all(Team.self)[0]
            deleter.delete(germany)
            deleter.processPendingChanges()
            #expect(try deleter.all(Player.self).isEmpty)
            try deleter.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            #expect(try reader.all(Team.self).isEmpty)
            #expect(try reader.all(Player.self).isEmpty)
            let coach = try reader.all(Coach.self)[0]
            #expect(coach.team == nil)
            #expect(try reader.all(Club.self)[0].players.isEmpty)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func denyRuleRefusesTheSaveUntilTheRelationshipIsEmpty(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let sales = Department(context: context)
            sales.title = "Sales"
            let employee = Employee(context: context)
            employee.name = "Eve"
            employee.department = sales
            try context.save()

            context.delete(sales)
            let error = try #require(throws: ValidationError.self) { try context.save() }
            #expect(error.code == ValidationError.relationshipDeniedDelete)
            #expect(error.failures.first?.key == "employees")
            context.rollback()
            #expect(!sales.isDeleted)

            context.delete(employee)
            context.delete(sales)
            try context.save()
            #expect(try context.all(Department.self).isEmpty)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func subentitiesShareTheirParentsFetches(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let person = Person(context: context)
            person.name = "Ada"
            let employee = Employee(context: context)
            employee.name = "Bob"
            employee.salary = 1200.5
            try context.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let everyone = try reader.all(Person.self, sortedBy: "name")
            #expect(everyone.map(\.name) == ["Ada", "Bob"])
            #expect(everyone[1] is Employee)
            #expect((everyone[1] as? Employee)?.salary == 1200.5)
            let request = Person.fetchRequest()
            request.includesSubentities = false
            #expect(try reader.fetch(request).map(\.name) == ["Ada"])
            #expect(try reader.all(Employee.self).map(\.name) == ["Bob"])
            #expect(everyone[1].entity.superentity?.name == "Person")
        }
    }
}
