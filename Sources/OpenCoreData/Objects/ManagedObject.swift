import Foundation

/// An object of the graph, Core Data's `NSManagedObject`: it belongs to a context, has an
/// ``objectID``, and holds the values of its entity's properties.
///
/// Subclass it and declare properties with `@Managed`, the counterpart of `@NSManaged`:
///
/// ```swift
/// final class Team: ManagedObject {
///     @Managed var teamName: String
///     @Managed var qualifyingZone: String
///     @Managed var wins: Int16 = 0
///     @Managed(inverse: "team", deleteRule: .cascade) var players: Set<Player>
/// }
///
/// let team = Team(context: context)
/// team.teamName = "Brazil"
/// team.wins += 1
/// try context.save()
/// ```
///
/// Or use the class itself with key-value coding (``value(forKey:)``,
/// ``setValue(_:forKey:)``) and an entity built in code.
///
/// Objects are not `Sendable`: use one only on its context's queue, and pass ``objectID`` to
/// other contexts.
open class ManagedObject: Hashable, CustomStringConvertible {
    /// The object's entity.
    public let entity: EntityDescription

    /// The object's identity: temporary while inserted and unsaved, permanent afterwards.
    public var objectID: ManagedObjectID { identity }

    /// The context the object belongs to; nil before insertion, after ``ManagedObjectContext/reset()``,
    /// or once its deletion has been saved.
    public var managedObjectContext: ManagedObjectContext? { owningContext }

    // The two above are stored as internal properties: the library reads them for every object
    // it touches, and reads of a public class property each pay a run-time exclusivity check.
    var identity: ManagedObjectID
    /// Set only through ``attach(to:)`` and ``detach()``, which keep ``ObjectState/checksQueue``
    /// in step without reading this weak reference.
    private(set) weak var owningContext: ManagedObjectContext?

    /// Makes `context` the object's context.
    func attach(to context: ManagedObjectContext) {
        owningContext = context
        state.checksQueue = context.checksObjectAccess
    }

    /// Leaves the object without a context.
    func detach() {
        owningContext = nil
        state.checksQueue = false
    }

    /// One value per property of the entity, at each property's slot; empty while a fault.
    var slots: [Slot] = []
    var state = ObjectState()
    /// The row version the object's committed values come from (optimistic locking).
    var version: Int64 = 0
    /// Values as last saved or fetched, for slots changed since (attributes and to-ones).
    var savedValues: [Int: Slot] = [:]
    /// Values before the changes of the current event (since the last processPendingChanges).
    var eventValues: [Int: Slot] = [:]
    /// The slots below 64 changed since the object was inserted, while its insert is not reported
    /// yet (``ObjectState/awaitsInsertEvent``), and during that report: their values before were
    /// the entity's defaults, so a new object keeps which slots changed, not a dictionary of old
    /// values (one allocation per new object, for nothing a bulk insert reads).
    var insertEventChangedSlots: UInt64 = 0
    /// Assignments refused by key-value coding; reported when the object is saved.
    var refusedAssignments: [ValidationError.Failure] = []
    /// Where a fault's values come from when it fires, if not from a query of its own.
    var faultSource: FaultSource?

    /// Creates an object of `entity` and, when `context` is given, inserts it there.
    ///
    /// - Parameters:
    ///   - entity: The object's entity, from a model.
    ///   - context: The context to insert the object into, or nil to insert it later with
    ///     ``ManagedObjectContext/insert(_:)``.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        self.entity = entity
        self.identity = .makeTemporary(for: entity)
        guard !entity.isPlaceholder else { return }
        entity.managedObjectModel?.requireCompiled()
        precondition(entity.isCompiled, "Entity \(entity.entityName) does not belong to a model; add it to a ManagedObjectModel first.")
        state.needsDefaults = true
        if let context { context.insert(self) }
    }

    /// Creates an object of the entity that `Self` represents in the context's model, and
    /// inserts it.
    ///
    /// The class must be an entity's ``EntityDescription/managedObjectClass``, which it is when the
    /// model comes from ``ManagedObjectModel/init(managedObjectClasses:)``.
    public convenience init(context: ManagedObjectContext) {
        let model = context.managedObjectModel
        guard let entity = model.entity(for: Self.self) else {
            preconditionFailure("\(Self.self) is not the class of any entity in the context's model; list it in ManagedObjectModel(managedObjectClasses:) or set EntityDescription.managedObjectClass.")
        }
        self.init(entity: entity, insertInto: context)
    }

    /// Creates the object that stands for a row until its values are needed.
    static func makeFault(entity: EntityDescription, id: ManagedObjectID, context: ManagedObjectContext) -> ManagedObject {
        let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
        object.identity = id
        object.attach(to: context)
        object.state.needsDefaults = false
        object.state.isFault = true
        return object
    }

    // MARK: Entity derivation

    /// The entity name a subclass maps to; the class name unless overridden.
    open class var entityName: String { String(describing: self) }

    /// Indexes to create for the subclass's entity (see ``FetchIndexDescription``). Single-attribute
    /// indexes can be declared with `@Managed(indexed: true)` instead.
    open class var fetchIndexes: [FetchIndexDescription] { [] }

    /// Uniqueness constraints of the subclass's entity (see
    /// ``EntityDescription/uniquenessConstraints``), each naming attributes or to-one
    /// relationships whose values, together, no two objects may share. One-attribute
    /// constraints can be declared with `@Managed(unique: true)` instead.
    ///
    /// ```swift
    /// final class Fixture: ManagedObject {
    ///     @Managed var homeTeam: String
    ///     @Managed var kickoff: Date
    ///     override class var uniquenessConstraints: [[String]] { [["homeTeam", "kickoff"]] }
    /// }
    /// ```
    ///
    /// A subclass inherits the constraints of its superclass's entity whether or not it
    /// overrides this.
    open class var uniquenessConstraints: [[String]] { [] }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    /// Identity, as Core Data's objects, which must not override it. Final, so that sets of
    /// objects hash them without a dynamic call.
    public final func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    // MARK: Lifecycle hooks

    /// Called once when the object is first inserted into a context; set dynamic defaults
    /// (`createdAt = Date()`) here. Changes made here are part of the insertion, not updates.
    ///
    /// The object is inserted, registered and has a temporary ID. A child context's save that
    /// brings the object to its parent does not call it again, so the parent keeps what the
    /// child's call set.
    open func awakeFromInsert() {}

    /// Called when the object's values have been loaded from the store: when a fault fires, or
    /// when a fetch returns the object with its values. Values set here are not changes (Core
    /// Data's rule): fill caches and transient properties without making the object updated.
    open func awakeFromFetch() {}

    /// Called before the object's changes are saved: for every object the save inserts, updates
    /// or deletes, and again for each object that the calls changed, until no call changes
    /// anything (Core Data's rule).
    ///
    /// ``isInserted``, ``isUpdated``, ``isDeleted``, ``hasChanges`` and ``changedValues()``
    /// describe the changes about to be written; ``changedValuesForCurrentEvent()`` gives their
    /// values before the save. Compare before you set a value:
    ///
    /// ```swift
    /// override func willSave() {
    ///     if !isDeleted, changedValues()["modifiedAt"] == nil { modifiedAt = Date() }
    /// }
    /// ```
    ///
    /// A `willSave()` that changes its object every time it is called would never let the
    /// save finish (Core Data runs it until the program crashes); after 100 rounds the save
    /// throws a ``ValidationError`` naming the objects instead, and writes nothing.
    open func willSave() {}

    /// Called after the object's changes are saved (or, for a deleted object, after its row is
    /// gone): the place to remove files that belonged to deleted objects, or to tell other parts
    /// of the app.
    ///
    /// Here ``isInserted``, ``isUpdated`` and ``isDeleted`` say what the save did to the object,
    /// ``hasChanges`` is true, and ``changedValuesForCurrentEvent()`` gives the saved keys with
    /// their values before the save. ``changedValues()`` is empty: the values are saved. The same
    /// holds for observers of ``ManagedObjectContext/didSaveObjectsNotification``.
    ///
    /// ```swift
    /// override func didSave() {
    ///     if isDeleted, let path = imagePath { try? FileManager.default.removeItem(atPath: path) }
    /// }
    /// ```
    ///
    /// Changes made here are new unsaved changes of the context. A deleted object cannot be
    /// changed (or brought back) here: its changes are ignored.
    open func didSave() {}

    /// Called before the object turns back into a fault (``ManagedObjectContext/refresh(_:mergeChanges:)``
    /// discarding its values, or a save that removed its row: then, after ``didSave()``, it also
    /// leaves its context): its values are still there. Release what you derived from them
    /// (caches, observers) here or in ``didTurnIntoFault()``.
    open func willTurnIntoFault() {}

    /// Called after the object turned into a fault: ``isFault`` is true, and reading a property
    /// would load its saved values again (or, once its deletion is saved and
    /// ``managedObjectContext`` is nil, give the entity's defaults).
    open func didTurnIntoFault() {}

    /// Called after the context replaced the object's values other than by fetching them: with
    /// `.refresh` when ``ManagedObjectContext/refresh(_:mergeChanges:)`` reloaded them under its
    /// unsaved changes, and with `.rollback` when ``ManagedObjectContext/rollback()`` restored its
    /// saved values (a changed or deleted object). Recompute what you derived from the values.
    open func awake(fromSnapshotEvents flags: SnapshotEventType) {}

    /// Called when the object is deleted, before its delete rules run. ``isDeleted`` is already
    /// true, and ``isInserted`` still says whether the object was new (never saved).
    open func prepareForDeletion() {}

    /// Checks the object before it is saved as a new object; throw a ``ValidationError`` to refuse.
    open func validateForInsert() throws {}

    /// Checks the object before its changes are saved; throw a ``ValidationError`` to refuse.
    open func validateForUpdate() throws {}

    /// Checks the object before its deletion is saved; throw a ``ValidationError`` to refuse.
    open func validateForDelete() throws {}

    // MARK: State

    /// Whether the object's values have not been loaded yet. Reading any property loads them.
    public var isFault: Bool { state.isFault }

    /// Whether the object was inserted and not saved yet; in ``didSave()``, whether the save
    /// that just finished inserted it.
    public var isInserted: Bool { state.isInserted || state.isInsertedBySave }

    /// Whether the object will be deleted at the next save; in ``didSave()``, whether the save
    /// that just finished deleted it.
    public var isDeleted: Bool { state.isDeleted || state.isInaccessible }

    /// Whether the object has changes not saved yet and is neither inserted nor deleted; in
    /// ``didSave()``, whether the save that just finished updated it.
    public var isUpdated: Bool {
        (!state.isInserted && !state.isDeleted && hasPropertyChanges) || state.isUpdatedBySave
    }

    /// Whether the object has unsaved changes of any kind: ``isInserted``, ``isDeleted`` or
    /// ``isUpdated``, as Core Data has it (so, in ``didSave()``, true for every saved object).
    public var hasChanges: Bool {
        state.isInserted || state.isDeleted || hasPropertyChanges || state.isInsertedBySave || state.isUpdatedBySave
    }

    /// Whether a stored (not transient) property changed since the last save.
    public var hasPersistentChangedValues: Bool {
        if state.isInserted { return true }
        return changedSlots.contains { entity.slots[$0].isPersistent }
    }

    /// Changed slots, or refused assignments that the next save must report.
    var hasPropertyChanges: Bool { !changedSlots.isEmpty || !refusedAssignments.isEmpty }

    /// Slots changed since the last save.
    var changedSlots: [Int] {
        var result = Array(savedValues.keys)
        for (index, slot) in slots.enumerated() {
            if case .toMany(let relationship) = slot, relationship.hasChanges, savedValues[index] == nil {
                result.append(index)
            }
        }
        return result.sorted()
    }

    // MARK: Description

    open var description: String {
        let id = objectID.description
        guard !state.isFault else { return "<\(entity.entityName) \(id)> (fault)" }
        let values = entity.slots.map { property in "\(property.name) = \(describeSlot(property.slot))" }
        return "<\(entity.entityName) \(id)> { \(values.joined(separator: "; ")) }"
    }

    private func describeSlot(_ index: Int) -> String {
        guard index < slots.count else { return "nil" }
        switch slots[index] {
        case .attribute(let value): return value.isNull ? "nil" : String(describing: value.swiftValue(for: (entity.slots[index] as? AttributeDescription)?.attributeType ?? .string) ?? "nil")
        case .toOne(let object): return object.map { $0.objectID.description } ?? "nil"
        case .toMany(let relationship): return relationship.current.map { "\($0.count) objects" } ?? "<relationship fault>"
        }
    }
}

/// Objects are confined to their context's queue; pass ``ManagedObject/objectID`` across queues.
@available(*, unavailable)
extension ManagedObject: @unchecked Sendable {}

/// Where a fault's values come from.
enum FaultSource {
    /// Values a fetch read with the object: firing costs no query.
    case snapshot(RowSnapshot)
    /// A member of a batched fetch: firing loads the whole batch in one query.
    case batch(BatchFaultLoader, index: Int)
    /// Not a source: the values of an object whose deletion was saved, which an undo puts back.
    case savedDeletion(values: [Slot])
}

/// The bookkeeping flags of an object, as bits of one word: reading a property asks one question,
/// ``needsWorkBeforeAccess``, however many reasons there are to do work first.
struct ObjectState {
    private var bits: UInt16 = 0

    private static let fault: UInt16 = 1 << 0
    private static let defaultsNeeded: UInt16 = 1 << 1
    private static let inserted: UInt16 = 1 << 2
    private static let insertEventAwaited: UInt16 = 1 << 3
    private static let deleted: UInt16 = 1 << 4
    private static let inaccessible: UInt16 = 1 << 5
    private static let probe: UInt16 = 1 << 6
    private static let queueChecked: UInt16 = 1 << 7
    private static let insertedBySave: UInt16 = 1 << 8
    private static let updatedBySave: UInt16 = 1 << 9

    private func has(_ flag: UInt16) -> Bool { bits & flag != 0 }

    private mutating func set(_ flag: UInt16, _ value: Bool) {
        if value { bits |= flag } else { bits &= ~flag }
    }

    var isFault: Bool {
        get { has(Self.fault) }
        set { set(Self.fault, newValue) }
    }

    /// A new object whose slots have not been filled with the entity's defaults yet.
    var needsDefaults: Bool {
        get { has(Self.defaultsNeeded) }
        set { set(Self.defaultsNeeded, newValue) }
    }

    var isInserted: Bool {
        get { has(Self.inserted) }
        set { set(Self.inserted, newValue) }
    }

    /// Inserted, and the insert not reported yet: changes go to ``ManagedObject/insertEventChangedSlots``.
    var awaitsInsertEvent: Bool {
        get { has(Self.insertEventAwaited) }
        set { set(Self.insertEventAwaited, newValue) }
    }

    var isDeleted: Bool {
        get { has(Self.deleted) }
        set { set(Self.deleted, newValue) }
    }

    /// The fault could not be fulfilled: the row is gone from the store.
    var isInaccessible: Bool {
        get { has(Self.inaccessible) }
        set { set(Self.inaccessible, newValue) }
    }

    /// A stand-in that records which `@Managed` properties a key path reads (see KeyPathNames).
    var isProbe: Bool {
        get { has(Self.probe) }
        set { set(Self.probe, newValue) }
    }

    /// The save that just finished inserted the object: set while its `didSave()` hooks and its
    /// did-save notification run, for ``ManagedObject/isInserted``. Bookkeeping reads
    /// ``isInserted``, which is already false then.
    var isInsertedBySave: Bool {
        get { has(Self.insertedBySave) }
        set { set(Self.insertedBySave, newValue) }
    }

    /// The save that just finished updated the object (see ``isInsertedBySave``).
    var isUpdatedBySave: Bool {
        get { has(Self.updatedBySave) }
        set { set(Self.updatedBySave, newValue) }
    }

    /// Every access to the object's properties checks that it runs on its context's queue (see
    /// ``ConcurrencyDebugging``).
    var checksQueue: Bool {
        get { has(Self.queueChecked) }
        set { set(Self.queueChecked, newValue) }
    }

    /// Whether reading or writing a property must do something first: fire the fault, fill in
    /// defaults, or check the queue. One test of the bits, so the check costs nothing when off.
    var needsWorkBeforeAccess: Bool {
        has(Self.fault | Self.defaultsNeeded | Self.queueChecked)
    }
}
