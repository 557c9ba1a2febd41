/// A property of an entity: an ``AttributeDescription`` or a ``RelationshipDescription``.
///
/// Like Core Data's `NSPropertyDescription`, a description can be changed until its model is
/// first used by a ``PersistentStoreCoordinator``; after that the model is immutable and a change
/// stops the program with "Can't modify an immutable model".
public class PropertyDescription: @unchecked Sendable, CustomStringConvertible {
    /// The property's name, the key used with ``ManagedObject/value(forKey:)``.
    public var name: String {
        willSet { checkMutable() }
    }

    /// Whether the property may be nil. Core Data's default is `true`. A required property that is
    /// nil when its object is saved fails validation.
    public var isOptional: Bool {
        get { optional }
        set {
            checkMutable()
            optional = newValue
        }
    }

    /// Whether the property lives only in memory: it is tracked for changes but never saved.
    public var isTransient: Bool {
        get { transient }
        set {
            checkMutable()
            transient = newValue
        }
    }

    /// Your own information about the property, as in a model file's User Info; the library
    /// does not read it.
    public var userInfo: [AnyHashable: Any]? {
        willSet { checkMutable() }
    }

    /// The property's name in an earlier version of the model, as Core Data's migration reads it.
    ///
    /// A property whose renaming identifier names a property the store has, and the new model
    /// lacks, is that property renamed: lightweight migration renames its columns and keeps its
    /// values or links (a type change is refused as for any attribute). A renamed many-to-many
    /// relationship is refused as an incompatible change instead of losing its links. Entities
    /// are renamed the same way (``EntityDescription/renamingIdentifier``).
    ///
    /// ```swift
    /// let title = AttributeDescription(name: "title", type: .string)
    /// title.renamingIdentifier = "name"   // version 1 called it name
    /// ```
    public var renamingIdentifier: String? {
        willSet { checkMutable() }
    }

    /// Core Data's `versionHashModifier`: a string an app sets to mark a change that does not
    /// alter the schema. Kept from model files; the store's schema hash does not include it.
    public var versionHashModifier: String? {
        willSet { checkMutable() }
    }

    /// Rules a value of the property must meet to be saved, each evaluated with the value as
    /// `SELF` (`SELF >= 1`, `length <= 64`, `SELF MATCHES '[a-z]+'`): Core Data's validation
    /// predicates. A model file's Minimum, Maximum and Regular Expression become predicates here.
    /// They are checked for attributes, when an object is inserted or the attribute changed, and
    /// not for nil (optionality decides that).
    public var validationPredicates: [FetchPredicate] { validationRules.map(\.predicate) }

    /// What a failure of each of ``validationPredicates`` says, in the same order.
    public var validationWarnings: [String] { validationRules.map(\.warning) }

    /// Sets the rules a value must meet, with what each failure says.
    ///
    /// ```swift
    /// rank.setValidationPredicates([try FetchPredicate(format: "SELF BETWEEN {1, 5}")],
    ///                              withValidationWarnings: ["a rank is from 1 to 5"])
    /// ```
    ///
    /// A save with a value that fails one throws a ``ValidationError`` naming the object, the
    /// key, the rule and the warning; nothing of the save is written. A rule set in code fails
    /// with ``ValidationError/invalidValue``, as Core Data's `NSManagedObjectValidationError`.
    public func setValidationPredicates(_ predicates: [FetchPredicate]?, withValidationWarnings warnings: [String]?) {
        let warnings = warnings ?? []
        setValidation((predicates ?? []).enumerated().map { index, predicate in
            ValidationRule(predicate: predicate, warning: index < warnings.count ? warnings[index] : "",
                           code: ValidationError.invalidValue)
        })
    }

    /// One validation predicate, what its failure says, and its code: a model file's ranges have
    /// Core Data's own codes (``ValidationError/numberTooSmall``, ...).
    struct ValidationRule {
        var predicate: FetchPredicate
        var warning: String
        var code: CoreDataErrorCode
    }

    func setValidation(_ rules: [ValidationRule]) {
        checkMutable()
        validationRules = rules
    }

    // Stored apart from the public properties above, which a save reads for every property of
    // every object: reads of a public stored property of a class each pay a run-time
    // exclusivity check, reads of an internal one the module never modifies in place do not.
    var optional = true
    var transient = false
    var validationRules: [ValidationRule] = []

    /// The entity that declares the property. Set when the property is added to an entity.
    public internal(set) var entity: EntityDescription? {
        get { entityTarget?.entity }
        set { entityTarget = newValue?.weakTarget }
    }
    private weak var entityTarget: WeakEntityTarget?

    /// The property's position in every object's storage, assigned when the model is compiled.
    /// Inherited properties keep their position in subentities.
    package internal(set) var slot: Int = -1

    init(name: String) {
        self.name = name
    }

    public var description: String {
        "\(entity?.name ?? "?").\(name)"
    }

    func checkMutable() {
        if let model = entity?.managedObjectModel {
            model.checkMutable()
        }
    }

    /// Persistent properties are stored; transient ones are not.
    package var isPersistent: Bool { !transient }
}
