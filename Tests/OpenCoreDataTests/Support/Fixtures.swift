import FetchedResultsChecking
import Foundation
import OpenCoreData

// The sample apps' entities, declared once with @Managed. Card, the fetched results controller's
// row, comes from FetchedResultsChecking, whose fuzzer uses it too.

final class Team: ManagedObject {
    @Managed var teamName: String
    @Managed(indexed: true) var qualifyingZone: String
    @Managed var imageName: String?
    @Managed var wins: Int16 = 0
    @Managed(inverse: "team", deleteRule: .cascade) var players: Set<Player>
    @Managed(inverse: "team", deleteRule: .nullify) var coach: Coach?

    override class var fetchIndexes: [FetchIndexDescription] {
        [FetchIndexDescription(name: "byZoneWinsName", elements: [
            FetchIndexElementDescription(propertyName: "qualifyingZone"),
            FetchIndexElementDescription(propertyName: "wins", ascending: false),
            FetchIndexElementDescription(propertyName: "teamName"),
        ])]
    }
}

final class Player: ManagedObject {
    @Managed var name: String
    @Managed var number: Int32 = 0
    @Managed(inverse: "players") var team: Team?
    @Managed(inverse: "players") var clubs: Set<Club>
}

final class Coach: ManagedObject {
    @Managed var name: String
    @Managed(inverse: "coach") var team: Team?
}

final class Club: ManagedObject {
    @Managed var name: String
    @Managed(inverse: "clubs") var players: Set<Player>
}

/// Every attribute type, for round trips.
final class Sample: ManagedObject {
    @Managed var int16: Int16 = 0
    @Managed var int32: Int32 = 0
    @Managed var int64: Int64 = 0
    @Managed var int: Int = 0
    @Managed var double: Double = 0
    @Managed var float: Float = 0
    @Managed var decimal: Decimal = 0
    @Managed var string: String?
    @Managed var bool: Bool = false
    @Managed var date: Date?
    @Managed var data: Data?
    @Managed var uuid: UUID?
    @Managed var url: URL?
}

/// CarValet's car: year defaults to 1908.
final class CDCar: ManagedObject {
    @Managed var make: String?
    @Managed var model: String?
    @Managed var year: Int16 = 1908
    @Managed var dateCreated: Date?

    override func awakeFromInsert() {
        dateCreated = Date()
    }
}

/// Done's to-do item: done defaults to false.
final class Item: ManagedObject {
    @Managed var name: String
    @Managed var createdAt: Date?
    @Managed var done: Bool = false
}

/// Inheritance: a person, and an employee who is one.
class Person: ManagedObject {
    @Managed var name: String
    @Managed var nickname: String?
}

final class Employee: Person {
    @Managed var salary: Double = 0
    @Managed(inverse: "employees", deleteRule: .nullify) var department: Department?
}

final class Department: ManagedObject {
    @Managed var title: String
    @Managed(inverse: "department", deleteRule: .deny) var employees: Set<Employee>
}

enum Fixtures {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: [
            Team.self, Player.self, Coach.self, Club.self, Sample.self, CDCar.self, Item.self,
            Person.self, Employee.self, Department.self, Card.self,
        ])
    }
}
