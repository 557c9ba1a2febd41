import Foundation
import OpenCoreData

// Fetches from a store of the guides' employees and departments: each predicate runs compiled to
// SQL, in the in-memory store, on a context's unsaved objects and with evaluate(with:) (the
// runner checks all four).

final class CorpusDepartment: ManagedObject {
    @Managed var name: String?
    @Managed var budget: Double?
    @Managed(inverse: "department") var employees: Set<CorpusEmployee>
}

final class CorpusEmployee: ManagedObject {
    @Managed var firstName: String?
    @Managed var lastName: String?
    @Managed var nickname: String?
    @Managed var salary: Double?
    @Managed var age: Int16?
    @Managed var birthday: Date?
    @Managed var active: Bool?
    @Managed(inverse: "employees") var department: CorpusDepartment?
}

enum StoreCorpus {
    /// Departments: name, budget.
    static let departments: [(String, Double?)] = [("Sales", 100_000), ("Engineering", 250_000), ("Marketing", 50_000), ("Legal", nil)]

    /// Employees: first and last name, nickname, salary, age, birthday (seconds since 1970),
    /// active, department.
    static let employees: [(String, String, String?, Double?, Int16?, Double?, Bool?, String?)] = [
        ("Matthew", "Smith", "Matt", 50_000, 30, 473_385_600, true, "Sales"),
        ("Ben", "Ballard", "", 65_000, 41, 70_156_800, false, "Engineering"),
        ("Melissa", "Turner", "Mel", 72_000, 35, 329_875_200, true, "Engineering"),
        ("Nick", "Worsley", nil, 48_000, 28, nil, true, "Sales"),
        ("Adam", "Adderley", nil, nil, nil, nil, nil, nil),
        ("Mark", "Adderley", "Marky", 90_000, 52, -131_673_600, false, "Sales"),
        ("Zoë", "Citroën", "Zo", 40_000, 24, 946_598_400, nil, "Marketing"),
    ]

    static let everyone: Set<String> = Set(employees.map(\.0))
    static func everyone(but names: String...) -> Set<String> { everyone.subtracting(names) }

    /// Inserts the employees and departments (without saving).
    static func insert(into context: ManagedObjectContext) {
        var byName: [String: CorpusDepartment] = [:]
        for (name, budget) in departments {
            let department = CorpusDepartment(context: context)
            department.name = name
            department.budget = budget
            byName[name] = department
        }
        for (first, last, nickname, salary, age, birthday, active, department) in employees {
            let employee = CorpusEmployee(context: context)
            employee.firstName = first
            employee.lastName = last
            employee.nickname = nickname
            employee.salary = salary
            employee.age = age
            employee.birthday = birthday.map(Date.init(timeIntervalSince1970:))
            employee.active = active
            employee.department = department.flatMap { byName[$0] }
        }
    }

    static let year1975 = Date(timeIntervalSince1970: 157_766_400)

    static let all: [StoreEntry] = comparisons + nulls + strings + emptyStrings + membership + keyPaths + toMany

    static let comparisons: [StoreEntry] = [
        StoreEntry("firstName == 'Ben'", are: ["Ben"], .syntax("Basic Comparisons")),
        StoreEntry("firstName = %@", ["Ben"], are: ["Ben"], .syntax("Basic Comparisons")),
        StoreEntry("firstName != 'Ben'", are: everyone(but: "Ben"), .syntax("Basic Comparisons")),
        StoreEntry("firstName <> 'Ben'", are: everyone(but: "Ben"), .syntax("Basic Comparisons")),
        StoreEntry("salary > 60000", are: ["Ben", "Melissa", "Mark"], .syntax("Basic Comparisons")),
        StoreEntry("salary >= 65000", are: ["Ben", "Melissa", "Mark"], .syntax("Basic Comparisons")),
        StoreEntry("salary => 65000", are: ["Ben", "Melissa", "Mark"], .syntax("Basic Comparisons")),
        StoreEntry("salary < 48000", are: ["Zoë"], .syntax("Basic Comparisons")),
        StoreEntry("salary <= 48000", are: ["Nick", "Zoë"], .syntax("Basic Comparisons")),
        StoreEntry("salary =< 48000", are: ["Nick", "Zoë"], .syntax("Basic Comparisons")),
        StoreEntry("salary BETWEEN {48000, 65000}", are: ["Matthew", "Ben", "Nick"], .syntax("Basic Comparisons")),
        StoreEntry("salary BETWEEN %@", [[40_000, 50_000]], are: ["Matthew", "Nick", "Zoë"], .syntax("Basic Comparisons")),
        StoreEntry("age == 30.0", are: ["Matthew"], .syntax("Basic Comparisons")),
        StoreEntry("age > 40.5", are: ["Ben", "Mark"], .syntax("Basic Comparisons")),
        StoreEntry("60000 < salary", are: ["Ben", "Melissa", "Mark"], .syntax("Basic Comparisons")),
        StoreEntry("birthday > %@", [year1975], are: ["Matthew", "Melissa", "Zoë"], .syntax("Basic Comparisons")),
        StoreEntry("birthday < %@", [year1975], are: ["Ben", "Mark"], .syntax("Basic Comparisons")),
        StoreEntry("active == YES", are: ["Matthew", "Melissa", "Nick"], .creating("Boolean Values")),
        StoreEntry("active == %@", [true], are: ["Matthew", "Melissa", "Nick"], .creating("Boolean Values")),
        StoreEntry("active == 1", are: ["Matthew", "Melissa", "Nick"], .printedByFoundation("Booleans")),
        StoreEntry("active == TRUE", are: ["Matthew", "Melissa", "Nick"], .syntax("Literals")),
        StoreEntry("active == NO", are: ["Ben", "Mark"], .creating("Boolean Values")),
        StoreEntry("active != YES", are: ["Ben", "Mark", "Adam", "Zoë"], .using("Using Null Values")),
        StoreEntry("firstName BEGINSWITH 'M' AND salary > 60000", are: ["Melissa", "Mark"], .syntax("Basic Compound Predicates")),
        StoreEntry("firstName == 'Ben' OR firstName == 'Nick'", are: ["Ben", "Nick"], .syntax("Basic Compound Predicates")),
        StoreEntry("firstName == 'Ben' || firstName == 'Nick'", are: ["Ben", "Nick"], .syntax("Basic Compound Predicates")),
        StoreEntry("NOT firstName BEGINSWITH 'M'", are: ["Ben", "Nick", "Adam", "Zoë"], .syntax("Basic Compound Predicates")),
        StoreEntry("!(firstName BEGINSWITH 'M')", are: ["Ben", "Nick", "Adam", "Zoë"], .syntax("Basic Compound Predicates")),
        StoreEntry("TRUEPREDICATE", are: everyone, .syntax("Boolean Value Predicates")),
        StoreEntry("FALSEPREDICATE", are: [], .syntax("Boolean Value Predicates")),
        StoreEntry("(lastName LIKE[c] 'Worsley') AND (salary > %@)", [40_000], are: ["Nick"], .coreData("Fetching Objects")),
    ]

    /// "A comparison predicate does not match any value with null except null (nil) or NSNull."
    static let nulls: [StoreEntry] = [
        StoreEntry("salary == nil", are: ["Adam"], .using("Testing for Null")),
        StoreEntry("salary = nil", are: ["Adam"], .using("Testing for Null")),
        StoreEntry("salary != nil", are: everyone(but: "Adam"), .using("Testing for Null")),
        StoreEntry("salary > 0", are: everyone(but: "Adam"), .using("Using Null Values")),
        StoreEntry("(salary > 60000) OR (salary = nil)", are: ["Ben", "Melissa", "Mark", "Adam"], .using("Testing for Null")),
        StoreEntry("NOT (salary > 60000)", are: ["Matthew", "Nick", "Adam", "Zoë"], .using("Using Null Values")),
        StoreEntry("nickname == nil", are: ["Nick", "Adam"], .using("Testing for Null")),
        StoreEntry("department == nil", are: ["Adam"], .using("Testing for Null")),
        StoreEntry("department = (nil)", are: ["Adam"], .bnf("Expression")),
        StoreEntry("(nil) == department", are: ["Adam"], .bnf("Expression")),
        StoreEntry("department.name == nil", are: ["Adam"], .using("Testing for Null")),
        StoreEntry("department.budget == nil", are: ["Adam"], .using("Testing for Null")),
        StoreEntry("active == nil", are: ["Adam", "Zoë"], .using("Testing for Null")),
        StoreEntry("birthday < %@ OR birthday == nil", [year1975], are: ["Ben", "Mark", "Nick", "Adam"], .using("Testing for Null")),
    ]

    static let strings: [StoreEntry] = [
        StoreEntry("lastName LIKE[c] 'worsley'", are: ["Nick"], .syntax("String Comparisons")),
        StoreEntry("lastName BEGINSWITH 'Add'", are: ["Adam", "Mark"], .syntax("String Comparisons")),
        StoreEntry("lastName BEGINSWITH 'add'", are: [], .syntax("String Comparisons")),
        StoreEntry("lastName BEGINSWITH[c] 'add'", are: ["Adam", "Mark"], .syntax("String Comparisons")),
        StoreEntry("lastName ENDSWITH 'ley'", are: ["Nick", "Adam", "Mark"], .syntax("String Comparisons")),
        StoreEntry("lastName CONTAINS 'ur'", are: ["Melissa"], .syntax("String Comparisons")),
        StoreEntry("lastName CONTAINS[c] 'UR'", are: ["Melissa"], .syntax("String Comparisons")),
        StoreEntry("lastName CONTAINS[cd] 'citroen'", are: ["Zoë"], .syntax("String Comparisons")),
        StoreEntry("lastName CONTAINS 'citroen'", are: [], .syntax("String Comparisons")),
        StoreEntry("lastName CONTAINS[d] 'Citroen'", are: ["Zoë"], .syntax("String Comparisons")),
        StoreEntry("firstName ==[d] 'Zoe'", are: ["Zoë"], .syntax("String Comparisons")),
        StoreEntry("firstName == 'Zoe'", are: [], .syntax("String Comparisons")),
        StoreEntry("firstName ==[cd] 'zoe'", are: ["Zoë"], .syntax("String Comparisons")),
        StoreEntry("firstName LIKE 'M*'", are: ["Matthew", "Melissa", "Mark"], .syntax("String Comparisons")),
        StoreEntry("firstName LIKE 'M?rk'", are: ["Mark"], .syntax("String Comparisons")),
        StoreEntry("firstName LIKE '*a*'", are: ["Matthew", "Adam", "Mark", "Melissa"], .syntax("String Comparisons")),
        StoreEntry("firstName LIKE[c] 'a*'", are: ["Adam"], .syntax("String Comparisons")),
        StoreEntry("firstName MATCHES 'M.*'", are: ["Matthew", "Melissa", "Mark"], .syntax("String Comparisons")),
        StoreEntry("firstName MATCHES 'Ma'", are: [], .syntax("String Comparisons")),
        StoreEntry("firstName MATCHES '[A-Z][a-z]{2}'", are: ["Ben"], .syntax("String Comparisons")),
        StoreEntry("nickname MATCHES 'M.*'", are: ["Matthew", "Melissa", "Mark"], .syntax("String Comparisons")),
        StoreEntry("nickname BEGINSWITH 'Ma'", are: ["Matthew", "Mark"], .syntax("String Comparisons")),
    ]

    /// `range(of:)`: "Returns {NSNotFound, 0} if searchString is not found or is empty ("")."
    static let emptyStrings: [StoreEntry] = ["BEGINSWITH", "ENDSWITH", "CONTAINS"].flatMap { (op: String) -> [StoreEntry] in
        [
            StoreEntry("nickname \(op) ''", are: [], .reference("NSString range(of:)")),
            StoreEntry("nickname \(op)[cd] ''", are: [], .reference("NSString range(of:)")),
            StoreEntry("nickname \(op) %@", [""], are: [], .reference("NSString range(of:)")),
            StoreEntry("NOT nickname \(op) ''", are: everyone, .reference("NSString range(of:)")),
            StoreEntry("lastName \(op) nickname", are: [], .reference("NSString range(of:)")),
            StoreEntry("ANY employees.nickname \(op) ''", of: "CorpusDepartment", are: [], .reference("NSString range(of:)")),
            StoreEntry("ALL employees.nickname \(op) ''", of: "CorpusDepartment", are: ["Legal"], .reference("NSString range(of:)")),
            StoreEntry("NONE employees.nickname \(op) ''", of: "CorpusDepartment", are: ["Sales", "Engineering", "Marketing", "Legal"],
                       .reference("NSString range(of:)")),
            StoreEntry("SUBQUERY(employees, $e, $e.nickname \(op) '').@count > 0", of: "CorpusDepartment", are: [],
                       .reference("NSString range(of:)")),
        ]
    } + [
        StoreEntry("nickname == ''", are: ["Ben"], .syntax("Basic Comparisons")),
        StoreEntry("nickname LIKE ''", are: ["Ben"], .syntax("String Comparisons")),
    ]

    static let membership: [StoreEntry] = [
        StoreEntry("firstName IN {'Ben', 'Melissa', 'Nick'}", are: ["Ben", "Melissa", "Nick"], .syntax("Aggregate Operations")),
        StoreEntry("firstName IN %@", [["Ben", "Nick"]], are: ["Ben", "Nick"], .syntax("Aggregate Operations")),
        StoreEntry("firstName IN %@", [Set(["Ben", "Nick"])], are: ["Ben", "Nick"], .syntax("Aggregate Operations")),
        StoreEntry("lastName IN %@", [["a": "Turner", "b": "Smith"]], are: ["Melissa", "Matthew"], .syntax("Aggregate Operations")),
        StoreEntry("NOT firstName IN {'Ben'}", are: everyone(but: "Ben"), .syntax("Aggregate Operations")),
        StoreEntry("firstName IN[c] {'ben', 'NICK'}", are: ["Ben", "Nick"], .syntax("String Comparisons")),
        StoreEntry("salary IN {50000, 48000.0}", are: ["Matthew", "Nick"], .syntax("Aggregate Operations")),
        StoreEntry("((firstName)) IN ({'Ben'})", are: ["Ben"], .bnf("Expression")),
        StoreEntry("firstName IN {}", are: [], .bnf("Literal Aggregate")),
    ]

    static let keyPaths: [StoreEntry] = [
        StoreEntry("department.name like 'Sales'", are: ["Matthew", "Nick", "Mark"], .using("Using Predicates with Key-Paths")),
        StoreEntry("department.name like %@", ["Engineering"], are: ["Ben", "Melissa"], .using("Using Predicates with Key-Paths")),
        StoreEntry("department.budget > 100000", are: ["Ben", "Melissa"], .using("Using Predicates with Key-Paths")),
        StoreEntry("%K == %@", ["firstName", "Ben"], are: ["Ben"], .syntax("Parser Basics")),
        StoreEntry("%K.%K == %@", ["department", "name", "Sales"], are: ["Matthew", "Nick", "Mark"], .bnf("Keypath Expression")),
        StoreEntry("%K.name == %@", ["department", "Sales"], are: ["Matthew", "Nick", "Mark"], .bnf("Keypath Expression")),
        StoreEntry("department.%K == %@", ["name", "Sales"], are: ["Matthew", "Nick", "Mark"], .bnf("Keypath Expression")),
        StoreEntry("%K == %@", ["department.name", "Sales"], are: ["Matthew", "Nick", "Mark"], .bnf("Keypath Expression")),
        StoreEntry("%K == %@", [\CorpusEmployee.department?.name, "Sales"], are: ["Matthew", "Nick", "Mark"],
                   .deviation("Swift key paths as %K arguments")),
        StoreEntry("%K.%K == %@", [\CorpusEmployee.department, \CorpusDepartment.name, "Sales"], are: ["Matthew", "Nick", "Mark"],
                   .deviation("Swift key paths as %K arguments")),
        StoreEntry("%K.name == %@", [\CorpusEmployee.department, "Sales"], are: ["Matthew", "Nick", "Mark"],
                   .deviation("Swift key paths as %K arguments")),
        StoreEntry("%K BEGINSWITH %@", [\CorpusEmployee.lastName, "Add"], are: ["Adam", "Mark"], .deviation("Swift key paths as %K arguments")),
        StoreEntry("(salary) > (60000)", are: ["Ben", "Melissa", "Mark"], .bnf("Expression")),
        StoreEntry("(department.name) == 'Sales'", are: ["Matthew", "Nick", "Mark"], .bnf("Expression")),
        StoreEntry("(department).name == 'Sales'", are: ["Matthew", "Nick", "Mark"], .bnf("Keypath Expression")),
        StoreEntry("SELF.firstName == 'Ben'", are: ["Ben"], .syntax("Literals")),
    ]

    static let toMany: [StoreEntry] = [
        // "ANY employees.firstName like 'Matthew'", "ANY employees.salary > %f".
        StoreEntry("ANY employees.firstName like 'Matthew'", of: "CorpusDepartment", are: ["Sales"], .using("Using Predicates with Key-Paths")),
        StoreEntry("ANY employees.salary > %f", [70_000.0], of: "CorpusDepartment", are: ["Engineering", "Sales"],
                   .using("Using Predicates with Key-Paths")),
        StoreEntry("ALL employees.salary > 45000", of: "CorpusDepartment", are: ["Sales", "Engineering", "Legal"], .syntax("Aggregate Operations")),
        StoreEntry("NONE employees.salary > 80000", of: "CorpusDepartment", are: ["Engineering", "Marketing", "Legal"],
                   .syntax("Aggregate Operations")),
        StoreEntry("NOT (ANY employees.salary > 80000)", of: "CorpusDepartment", are: ["Engineering", "Marketing", "Legal"],
                   .syntax("Aggregate Operations")),
        StoreEntry("SOME employees.age < 30", of: "CorpusDepartment", are: ["Sales", "Marketing"], .syntax("Aggregate Operations")),
        StoreEntry("employees.@count > 2", of: "CorpusDepartment", are: ["Sales"], .collectionOperators("@count")),
        StoreEntry("employees.@count == 0", of: "CorpusDepartment", are: ["Legal"], .collectionOperators("@count")),
        StoreEntry("%K.@count > 2", ["employees"], of: "CorpusDepartment", are: ["Sales"], .collectionOperators("@count")),
        StoreEntry("employees.@sum.salary > 130000", of: "CorpusDepartment", are: ["Sales", "Engineering"], .collectionOperators("@sum")),
        StoreEntry("employees.@avg.age > 37", of: "CorpusDepartment", are: ["Engineering"], .collectionOperators("@avg")),
        StoreEntry("employees.@max.salary == 90000", of: "CorpusDepartment", are: ["Sales"], .collectionOperators("@max")),
        StoreEntry("employees.@min.age == 28", of: "CorpusDepartment", are: ["Sales"], .collectionOperators("@min")),
        StoreEntry("SUBQUERY(employees, $x, $x.firstName == 'Ben' && $x.lastName == 'Ballard').@count != 0", of: "CorpusDepartment",
                   are: ["Engineering"], .reference("NSExpression, subquery expressions")),
        StoreEntry("SUBQUERY(employees, $e, $e.salary > 60000).@count >= 2", of: "CorpusDepartment", are: ["Engineering"],
                   .reference("NSExpression, subquery expressions")),
        StoreEntry("name IN {'Sales', 'Legal'}", of: "CorpusDepartment", are: ["Sales", "Legal"], .syntax("Aggregate Operations")),
        StoreEntry("budget == nil", of: "CorpusDepartment", are: ["Legal"], .using("Testing for Null")),
        StoreEntry("employees.firstName CONTAINS 'Ben'", of: "CorpusDepartment", are: ["Engineering"], .bnf("Operations")),
        StoreEntry("'Ben' IN employees.firstName", of: "CorpusDepartment", are: ["Engineering"], .bnf("Operations")),
        StoreEntry("ANY %K.%K > %@", [\CorpusDepartment.employees, \CorpusEmployee.salary, 70_000], of: "CorpusDepartment",
                   are: ["Engineering", "Sales"], .deviation("Swift key paths as %K arguments")),
        StoreEntry("ANY (employees).salary > 70000", of: "CorpusDepartment", are: ["Engineering", "Sales"], .bnf("Expression")),
    ]
}
