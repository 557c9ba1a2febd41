/// A save refused because objects broke the model's rules. Nothing of the save was written.
///
/// ``failures`` lists every failing object and key, not only the first:
///
/// ```swift
/// do {
///     try context.save()
/// } catch let error as ValidationError {
///     for failure in error.failures {
///         print(failure.entityName, failure.key ?? "-", failure.message)
///     }
/// }
/// ```
public struct ValidationError: CoreDataCodedError {
    /// One broken rule on one object.
    public struct Failure: Sendable, CustomStringConvertible {
        /// What kind of rule was broken.
        public let code: CoreDataErrorCode
        /// The object that broke it.
        public let objectID: ManagedObjectID
        /// Its entity's name.
        public let entityName: String
        /// The property involved, if the rule is about one.
        public let key: String?
        /// What is wrong, in words.
        public let message: String

        public var description: String {
            "\(entityName)\(key.map { ".\($0)" } ?? ""): \(message)"
        }

        /// Creates a failure.
        public init(code: CoreDataErrorCode, objectID: ManagedObjectID, entityName: String, key: String?, message: String) {
            self.code = code
            self.objectID = objectID
            self.entityName = entityName
            self.key = key
            self.message = message
        }
    }

    /// Every failure found; at least one.
    public let failures: [Failure]

    /// ``multipleErrors`` when there is more than one failure, otherwise the one failure's code.
    public var code: CoreDataErrorCode {
        failures.count == 1 ? failures[0].code : Self.multipleErrors
    }

    public var description: String {
        let list = failures.map { "  - \($0)" }.joined(separator: "\n")
        return "Validation failed for \(failures.count) problem\(failures.count == 1 ? "" : "s"); nothing was saved:\n\(list)"
    }

    /// A value of the wrong type, an unknown key, or another rule on one value.
    public static let invalidValue = CoreDataErrorCode(1550, "invalidValue")
    /// More than one failure; see ``failures``.
    public static let multipleErrors = CoreDataErrorCode(1560, "multipleErrors")
    /// A required attribute or to-one relationship is nil.
    public static let missingMandatoryProperty = CoreDataErrorCode(1570, "missingMandatoryProperty")
    /// A to-many relationship holds fewer objects than its minimum count.
    public static let relationshipLacksMinimumCount = CoreDataErrorCode(1580, "relationshipLacksMinimumCount")
    /// A to-many relationship holds more objects than its maximum count.
    public static let relationshipExceedsMaximumCount = CoreDataErrorCode(1590, "relationshipExceedsMaximumCount")
    /// A deleted object still has objects in a relationship whose delete rule is deny.
    public static let relationshipDeniedDelete = CoreDataErrorCode(1600, "relationshipDeniedDelete")

    /// A number is below its attribute's minimum (a model file's Minimum Value).
    public static let numberTooSmall = CoreDataErrorCode(1610, "numberTooSmall")
    /// A number is above its attribute's maximum.
    public static let numberTooLarge = CoreDataErrorCode(1620, "numberTooLarge")
    /// A date is later than its attribute's maximum.
    public static let dateTooLate = CoreDataErrorCode(1630, "dateTooLate")
    /// A date is earlier than its attribute's minimum.
    public static let dateTooSoon = CoreDataErrorCode(1640, "dateTooSoon")
    /// A string is longer than its attribute's maximum length.
    public static let stringTooLong = CoreDataErrorCode(1660, "stringTooLong")
    /// A string is shorter than its attribute's minimum length.
    public static let stringTooShort = CoreDataErrorCode(1670, "stringTooShort")
    /// A string does not match its attribute's regular expression.
    public static let stringPatternMatching = CoreDataErrorCode(1680, "stringPatternMatching")

    /// Creates an error from failures.
    public init(failures: [Failure]) {
        self.failures = failures
    }

    /// Creates an error for one broken rule, as a ``ManagedObject/validateForInsert()`` override
    /// throws it:
    ///
    /// ```swift
    /// override func validateForInsert() throws {
    ///     if teamName.isEmpty { throw ValidationError(self, key: "teamName", message: "must not be empty") }
    /// }
    /// ```
    public init(_ object: ManagedObject, key: String?, message: String, code: CoreDataErrorCode = ValidationError.invalidValue) {
        self.init(failures: [Failure(code: code, objectID: object.objectID, entityName: object.entity.name ?? "",
                                     key: key, message: message)])
    }
}
