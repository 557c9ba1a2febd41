import Foundation
import OpenCoreData
import Testing

/// Validation predicates: a model file's Minimum, Maximum and Regular Expression, and rules set in
/// code, refuse a save with Core Data's codes and write nothing of it.
@Suite struct ValidationPredicateTests {
    private static let ratingBody = #"""
        <entity name="Rating" syncable="YES">
            <attribute name="due" optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="864000" usesScalarValueType="NO"/>
            <attribute name="price" optional="YES" attributeType="Decimal" maxValueString="99.5"/>
            <attribute name="score" optional="YES" attributeType="Double" minValueString="0.5" usesScalarValueType="YES"/>
            <attribute name="stars" attributeType="Integer 16" defaultValueString="3" minValueString="1" maxValueString="5" usesScalarValueType="YES"/>
            <attribute name="topic" optional="YES" attributeType="String" minValueString="2" maxValueString="8" regularExpressionString="^[a-z]+$"/>
        </entity>
        """#

    private static func ratings(_ kind: StoreKind) throws -> (TestStack, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(contentsOf: try ModelFiles.write(ratingBody, in: directory, name: "Ratings"))
        return (try TestStack(kind, model: model), directory)
    }

    /// The rules a file declares are the attribute's validation predicates, as Core Data reads them.
    @Test func theFilesRangesAreValidationPredicates() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(contentsOf: try ModelFiles.write(Self.ratingBody, in: directory, name: "Ratings"))
        let attributes = try #require(model.entitiesByName["Rating"]).attributesByName
        #expect(attributes["stars"]?.validationPredicates.map(\.predicateFormat) == ["SELF >= 1", "SELF <= 5"])
        #expect(attributes["topic"]?.validationPredicates.map(\.predicateFormat) == ["length >= 2", "length <= 8", #"SELF MATCHES "^[a-z]+$""#])
        #expect(attributes["topic"]?.validationWarnings.last == "must match ^[a-z]+$")
    }

    struct Violation: CustomTestStringConvertible, Sendable {
        var key: String
        var value: @Sendable () -> Any
        var code: CoreDataErrorCode
        var testDescription: String { "\(key) \(code.name)" }
    }

    static let violations: [Violation] = [
        Violation(key: "stars", value: { Int16(0) }, code: ValidationError.numberTooSmall),
        Violation(key: "stars", value: { Int16(6) }, code: ValidationError.numberTooLarge),
        Violation(key: "score", value: { 0.25 }, code: ValidationError.numberTooSmall),
        Violation(key: "price", value: { Decimal(string: "99.51") ?? 0 }, code: ValidationError.numberTooLarge),
        Violation(key: "topic", value: { "a" }, code: ValidationError.stringTooShort),
        Violation(key: "topic", value: { "abcdefghi" }, code: ValidationError.stringTooLong),
        Violation(key: "topic", value: { "Tea" }, code: ValidationError.stringPatternMatching),
        Violation(key: "due", value: { Date(timeIntervalSinceReferenceDate: -1) }, code: ValidationError.dateTooSoon),
        Violation(key: "due", value: { Date(timeIntervalSinceReferenceDate: 864_001) }, code: ValidationError.dateTooLate),
    ]

    /// Each rule refuses a value just past its bound, with its own code, and nothing is written;
    /// a value on the bound saves.
    @Test(arguments: StoreKind.withPostgres, violations)
    func aValuePastARuleIsRefusedWithItsCode(kind: StoreKind, violation: Violation) throws {
        let (stack, _) = try Self.ratings(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let rating = try EntityDescription.insertNewObject(forEntityName: "Rating", into: context)
            rating.setValue(violation.value(), forKey: violation.key)
            let error = #expect(throws: ValidationError.self) { try context.save() }
            #expect(error?.code == violation.code, "\(String(describing: error))")
            #expect(error?.failures.first?.key == violation.key)
            context.rollback()
            let reader = stack.newContext()
            #expect(try reader.performAndWait { try reader.count(for: FetchRequest<ManagedObject>(entityName: "Rating")) } == 0)

            let valid = try EntityDescription.insertNewObject(forEntityName: "Rating", into: context)
            for (key, value) in ["stars": Int16(5), "score": 0.5, "price": Decimal(string: "99.5") ?? 0, "topic": "ab",
                                 "due": Date(timeIntervalSinceReferenceDate: 864_000)] as [String: Any] {
                valid.setValue(value, forKey: key)
            }
            try context.save()
        }
    }

    /// Every broken rule of every object is reported at once.
    @Test func everyBrokenRuleIsReported() throws {
        let (stack, _) = try Self.ratings(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            let first = try EntityDescription.insertNewObject(forEntityName: "Rating", into: context)
            first.setValue(Int16(9), forKey: "stars")
            first.setValue("X", forKey: "topic")
            let error = #expect(throws: ValidationError.self) { try context.save() }
            #expect(error?.code == ValidationError.multipleErrors)
            #expect(Set(error?.failures.map(\.code.name) ?? []) == ["numberTooLarge", "stringTooShort", "stringPatternMatching"])
        }
    }

    /// Rules set in code fail with Core Data's general code and their warning; an object whose
    /// attribute did not change since it was saved is not checked again.
    @Test func rulesSetInCodeCarryTheirWarning() throws {
        let note = EntityDescription(name: "Note")
        let title = AttributeDescription(name: "title", type: .string)
        title.setValidationPredicates([try FetchPredicate(format: "SELF BEGINSWITH 'Re: '")],
                                      withValidationWarnings: ["a title starts with Re: "])
        note.properties = [title, AttributeDescription(name: "views", type: .integer32, defaultValue: Int32(0))]
        let stack = try TestStack(.sqlite, model: ManagedObjectModel(entities: [note]))
        let context = stack.newContext()
        try context.performAndWait {
            let object = try EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            object.setValue("Hello", forKey: "title")
            let error = #expect(throws: ValidationError.self) { try context.save() }
            #expect(error?.code == ValidationError.invalidValue)
            #expect(error?.failures.first?.message.contains("a title starts with Re: ") == true, "\(String(describing: error))")
            object.setValue("Re: Hello", forKey: "title")
            try context.save()
            object.setValue(Int32(3), forKey: "views")
            try context.save()
        }
        #expect(title.validationWarnings == ["a title starts with Re: "])
    }
}
