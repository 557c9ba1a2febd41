import Foundation

/// The schema of an object graph, Core Data's `NSManagedObjectModel`: its entities, their
/// properties and relationships.
///
/// Declare it once, from typed subclasses:
///
/// ```swift
/// final class Team: ManagedObject {
///     @Managed var teamName: String
///     @Managed var qualifyingZone: String
///     @Managed var wins: Int16 = 0
/// }
/// let model = try ManagedObjectModel(managedObjectClasses: [Team.self])
/// ```
///
/// or in code with ``EntityDescription``, as Core Data allows. A model can be changed until a
/// ``PersistentStoreCoordinator`` first uses it; it is then checked (problems throw a
/// ``ModelError`` from ``PersistentContainer/loadPersistentStores()``) and becomes immutable.
public final class ManagedObjectModel: @unchecked Sendable, CustomStringConvertible {
    /// The model's entities. Setting it makes each one belong to this model.
    public var entities: [EntityDescription] = [] {
        willSet { checkMutable() }
        didSet { adopt(entities) }
    }

    /// The model's name, which tells versions of this model from other models: Core Data names a
    /// model by its file (`Library.momd`, versions inside). A store records the name of the model
    /// that made it, and migrates automatically only for a model of the same name (a later
    /// version of it); see ``PersistentStoreDescription/shouldMigrateStoreOfAnotherModel``.
    ///
    /// Nil by default; ``PersistentContainer/init(name:managedObjectModel:)`` gives an unnamed
    /// model its own name, as Core Data's container loads the model of its name.
    public var name: String? {
        get { nameState.withLock { $0 } }
        set {
            checkMutable()
            nameState.withLock { $0 = newValue }
        }
    }

    /// The name, behind a lock: an unnamed model in use may still be given one (``adoptName(_:)``).
    private let nameState = Locked<String?>(nil)

    /// Names the model if it has no name, even once it is in use: the name is no part of what a
    /// store lays out, and reading ``versionChecksum`` (which freezes the model) before handing
    /// the model to its container must not leave it unnamed.
    func adoptName(_ name: String?) {
        nameState.withLock { current in
            if current == nil { current = name }
        }
    }

    /// Identifiers of this version of the model, such as `["2"]`, as in Core Data: they do not
    /// decide whether a store can be opened (its schema does), but a store records them, and
    /// errors show them to say which versions made the store and opened it.
    public var versionIdentifiers: Set<String> = [] {
        willSet { checkMutable() }
    }

    /// Entities by configuration name, in the order configurations were set.
    var configurationMembers: [(name: String, entities: [EntityDescription])] = []
    var fetchRequestTemplates: [String: FetchRequest<ManagedObject>] = [:]
    /// Whether an entity has derived attributes, which saves then compute; set by compilation.
    var hasDerivedAttributes = false

    private let compilation = Locked<CompilationState>(.notCompiled)
    /// Set (under the lock) once compilation succeeds; read without locking afterwards.
    private(set) var isCompiled = false
    private var entityByClass: [ObjectIdentifier: EntityDescription] = [:]
    private var compiledEntitiesByName: [String: EntityDescription] = [:]

    /// Creates an empty model; add entities with ``entities``.
    public init() {}

    /// Creates a model with the given entities.
    public init(entities: [EntityDescription]) {
        self.entities = entities
        adopt(entities)
    }

    /// The entities by name.
    public var entitiesByName: [String: EntityDescription] {
        if isCompiled { return compiledEntitiesByName }
        return Dictionary(entities.compactMap { entity in entity.name.map { ($0, entity) } },
                          uniquingKeysWith: { first, _ in first })
    }

    public var description: String {
        "ManagedObjectModel(\(entities.map(\.description).joined(separator: ", ")))"
    }

    private func adopt(_ entities: [EntityDescription]) {
        for entity in entities { entity.managedObjectModel = self }
    }

    func checkMutable() {
        precondition(!isCompiled, "Can't modify an immutable model: it is in use by a persistent store coordinator.")
    }

    /// The entity whose objects are instances of `objectClass`.
    func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        entityByClass[ObjectIdentifier(objectClass)]
    }

    /// The entity with this name, once the model is compiled.
    func compiledEntity(named name: String) -> EntityDescription? {
        compiledEntitiesByName[name]
    }
}

// MARK: - Compilation

extension ManagedObjectModel {
    private enum CompilationState: @unchecked Sendable {
        case notCompiled
        case compiled
        case failed(ModelError)
    }

    /// Checks the model and freezes it, once. Later calls return the first outcome.
    func compile() throws(ModelError) {
        let outcome: ModelError? = compilation.withLock { state -> ModelError? in
            switch state {
            case .compiled: return nil
            case .failed(let error): return error
            case .notCompiled:
                do throws(ModelError) {
                    try ModelCompiler(model: self).run()
                    for entity in entities {
                        entity.isCompiled = true
                        compiledEntitiesByName[entity.entityName] = entity
                        if entity.managedObjectClass != ManagedObject.self {
                            entityByClass[ObjectIdentifier(entity.managedObjectClass)] = entity
                        }
                    }
                    isCompiled = true
                    state = .compiled
                    return nil
                } catch {
                    state = .failed(error)
                    return error
                }
            }
        }
        if let outcome { throw outcome }
    }

    /// The model, compiled; stops the program if it is invalid, because a context cannot work
    /// with it. ``PersistentContainer/loadPersistentStores()`` reports the problem as an error
    /// first.
    func requireCompiled() {
        if isCompiled { return }
        do {
            try compile()
        } catch {
            preconditionFailure("\(error). loadPersistentStores() reports this as a thrown error.")
        }
    }
}
