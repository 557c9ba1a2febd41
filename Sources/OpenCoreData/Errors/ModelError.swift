/// A model that cannot be used: a bad name, a relationship whose destination or inverse is
/// missing, a default that does not fit its attribute, an unsupported feature.
///
/// Thrown by ``ManagedObjectModel/init(managedObjectClasses:)`` and when a coordinator first uses
/// a model (``PersistentContainer/loadPersistentStores()``). The message names the entity and
/// property and says what to change.
public struct ModelError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What is wrong and how to fix it.
    public let message: String

    public var description: String { "Invalid model: \(message)" }

    /// An entity or property name is missing, malformed, reserved or used twice.
    public static let invalidName = CoreDataErrorCode(140001, "invalidName")
    /// A relationship's destination entity is not in the model.
    public static let unknownDestination = CoreDataErrorCode(140002, "unknownDestination")
    /// A relationship's inverse is missing or does not point back.
    public static let inverseMismatch = CoreDataErrorCode(140003, "inverseMismatch")
    /// An attribute's default value does not fit its type, or changes between instances.
    public static let invalidDefaultValue = CoreDataErrorCode(140004, "invalidDefaultValue")
    /// The model uses something this library does not support (ordered relationships, ...).
    public static let unsupportedFeature = CoreDataErrorCode(140005, "unsupportedFeature")
    /// An entity inherits from itself or from an entity outside the model.
    public static let invalidInheritance = CoreDataErrorCode(140006, "invalidInheritance")
    /// An index names a property the entity does not have, or one that cannot be indexed.
    public static let invalidIndex = CoreDataErrorCode(140007, "invalidIndex")
    /// A `@Managed` declaration or class cannot be turned into an entity.
    public static let invalidDeclaration = CoreDataErrorCode(140008, "invalidDeclaration")
    /// A uniqueness constraint is empty, or names a property that cannot be constrained (unknown,
    /// to-many, transient) or the same property twice.
    public static let invalidConstraint = CoreDataErrorCode(140009, "invalidConstraint")

    /// A model file is missing, is not well-formed XML, or holds a value that does not fit its
    /// element (the message names the file, element and line).
    public static let invalidModelFile = CoreDataErrorCode(140010, "invalidModelFile")

    /// A transformable attribute names a value transformer that is not registered when the
    /// store is loaded (the message names the attribute and the transformer).
    public static let missingValueTransformer = CoreDataErrorCode(140011, "missingValueTransformer")

    package init(_ code: CoreDataErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
