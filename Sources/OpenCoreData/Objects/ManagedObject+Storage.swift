/// Reading and writing slots: faults load on first access, and every write is recorded for the
/// context's change tracking.
extension ManagedObject {
    /// Fills the slots if they are not: defaults for a new object, stored values for a fault.
    /// Every property read and write passes here, so this is also where the concurrency check
    /// runs when it is on.
    @inline(__always)
    func materialize() {
        if state.needsWorkBeforeAccess { prepareForAccess() }
    }

    private func prepareForAccess() {
        if state.checksQueue, let context = owningContext { context.checkObjectAccess(self) }
        if state.isFault {
            fireFault()
        } else if state.needsDefaults {
            applyDefaults()
        }
    }

    func applyDefaults() {
        state.needsDefaults = false
        slots = entity.slots.map(Self.defaultSlot)
    }

    /// What a property holds in a new object.
    static func defaultSlot(of property: PropertyDescription) -> Slot {
        if let attribute = property as? AttributeDescription { return .attribute(attribute.defaultStorage) }
        guard let relationship = property as? RelationshipDescription, relationship.isToMany else { return .toOne(nil) }
        return .toMany(ToManyRelationship(committed: [], isOrdered: relationship.isOrdered))
    }

    /// The value a slot had before the changes of the current event, if it changed in it.
    func eventValue(at slot: Int) -> Slot? {
        if changedBeforeInsertEvent(slot) { return Self.defaultSlot(of: entity.slots[slot]) }
        return eventValues[slot]
    }

    /// The value a slot had before an event being delivered, whose old values are `reported`:
    /// those, over the changes made since the event.
    func eventValue(at slot: Int, reported: [Int: Slot]) -> Slot? {
        if !changedBeforeInsertEvent(slot), let value = reported[slot] { return value }
        return eventValue(at: slot)
    }

    @inline(__always)
    private func changedBeforeInsertEvent(_ slot: Int) -> Bool {
        state.awaitsInsertEvent && slot < 64 && insertEventChangedSlots & (1 << slot) != 0
    }

    /// Every slot changed in the current event, with its value before.
    var currentEventValues: [Int: Slot] {
        guard state.awaitsInsertEvent else { return eventValues }
        return eventValues.merging(insertEventDefaults) { recorded, _ in recorded }
    }

    /// The slots changed before the object's insert was reported, with their defaults.
    var insertEventDefaults: [Int: Slot] {
        var defaults: [Int: Slot] = [:]
        var remaining = insertEventChangedSlots
        while remaining != 0 {
            let slot = remaining.trailingZeroBitCount
            defaults[slot] = Self.defaultSlot(of: entity.slots[slot])
            remaining &= remaining - 1
        }
        return defaults
    }

    private func fireFault() {
        guard let context = managedObjectContext else {
            state.isFault = false
            applyDefaults()
            return
        }
        context.fulfillFault(self)
    }

    /// Replaces the slots with a snapshot's values; to-one destinations become objects of
    /// `context` (faults if new there), to-many relationships become relationship faults.
    func fill(from snapshot: RowSnapshot, in context: ManagedObjectContext) {
        slots = entity.slots.map { property in
            switch property {
            case let attribute as AttributeDescription:
                return .attribute(attribute.isTransient ? attribute.defaultStorage : snapshot.value(at: attribute.slot))
            case let relationship as RelationshipDescription where relationship.isToMany:
                return .toMany(ToManyRelationship(committed: nil, isOrdered: relationship.isOrdered))
            default:
                return .toOne(snapshot.value(at: property.slot).objectID.map { context.objectOnQueue(with: $0) })
            }
        }
        version = snapshot.version
        state.isFault = false
        state.needsDefaults = false
    }

    // MARK: Reading

    func attributeValue(at slot: Int) -> PropertyValue {
        materialize()
        if case .attribute(let value) = slots[slot] { return value }
        return .null
    }

    func toOneValue(at slot: Int) -> ManagedObject? {
        materialize()
        if case .toOne(let object) = slots[slot] { return object }
        return nil
    }

    /// The relationship's storage, without loading its contents.
    func toManyRelationship(at slot: Int) -> ToManyRelationship {
        materialize()
        if case .toMany(let relationship) = slots[slot] { return relationship }
        let isOrdered = (entity.slots[slot] as? RelationshipDescription)?.isOrdered ?? false
        let replacement = ToManyRelationship(committed: [], isOrdered: isOrdered)
        slots[slot] = .toMany(replacement)
        return replacement
    }

    /// The relationship's storage with its contents loaded from the parent store.
    func loadedToManyRelationship(at slot: Int) -> ToManyRelationship {
        let relationship = toManyRelationship(at: slot)
        if relationship.isFault {
            if let context = managedObjectContext {
                context.loadRelationship(relationship, of: self, at: slot)
            } else {
                relationship.load([])
            }
        }
        return relationship
    }

    /// The relationship's current contents, loading them from the parent store if needed.
    func toManyValue(at slot: Int) -> Set<ManagedObject> {
        loadedToManyRelationship(at: slot).current ?? []
    }

    /// The relationship's current contents in order (an unordered relationship's in no
    /// particular order), loading them from the parent store if needed.
    func orderedToManyValue(at slot: Int) -> [ManagedObject] {
        loadedToManyRelationship(at: slot).orderedCurrent ?? []
    }

    // MARK: Writing

    /// Records the old value of `slot` before it changes, and tells the context.
    func willChangeSlot(_ slot: Int) {
        materialize()
        if state.awaitsInsertEvent, slot < 64 {
            // The insert already queued the report that will include this change.
            insertEventChangedSlots |= 1 << slot
            return
        }
        guard let context = managedObjectContext, !context.isAwakingFromFetch else { return }
        if !state.isInserted, savedValues[slot] == nil, !isToManySlot(slot) {
            savedValues[slot] = slots[slot]
        }
        if eventValues[slot] == nil {
            // Sized once for the slots an event usually changes, instead of growing (and
            // reallocating) as a new object's properties are set one by one.
            if eventValues.isEmpty { eventValues = Dictionary(minimumCapacity: min(slots.count, 8)) }
            eventValues[slot] = slots[slot].detachedCopy
        }
        context.objectDidChange(self)
    }

    func setAttributeValue(_ value: PropertyValue, at slot: Int) {
        willChangeSlot(slot)
        slots[slot] = .attribute(value)
    }

    private func isToManySlot(_ slot: Int) -> Bool {
        if case .toMany = slots[slot] { return true }
        return false
    }

    // MARK: Relationships, keeping inverses in step

    /// Sets a to-one relationship and updates the inverse on the old and new destinations.
    func setToOneValue(_ newValue: ManagedObject?, at slot: Int) {
        guard let relationship = entity.slots[slot] as? RelationshipDescription,
              acceptsRelated(newValue, through: relationship) else { return }
        let oldValue = toOneValue(at: slot)
        primitiveSetToOne(newValue, at: slot)
        guard oldValue !== newValue, let inverse = relationship.inverseRelationship else { return }
        oldValue?.unlink(self, through: inverse)
        newValue?.link(self, through: inverse, reverse: relationship)
    }

    /// Adds an object to a to-many relationship (an ordered one at `index`, the end when nil)
    /// and updates its inverse.
    func addToManyValue(_ object: ManagedObject, at slot: Int, index: Int? = nil) {
        guard let relationship = entity.slots[slot] as? RelationshipDescription,
              acceptsRelated(object, through: relationship) else { return }
        primitiveInsert(object, intoToManyAt: slot, index: index)
        guard let inverse = relationship.inverseRelationship else { return }
        object.link(self, through: inverse, reverse: relationship)
    }

    /// Removes an object from a to-many relationship and updates its inverse.
    func removeToManyValue(_ object: ManagedObject, at slot: Int) {
        guard let relationship = entity.slots[slot] as? RelationshipDescription else { return }
        primitiveRemove(object, fromToManyAt: slot)
        guard let inverse = relationship.inverseRelationship else { return }
        object.unlink(self, through: inverse)
    }

    /// Replaces a to-many relationship's contents.
    func setToManyValue(_ newValue: Set<ManagedObject>, at slot: Int) {
        let current = toManyValue(at: slot)
        willChangeSlot(slot)
        for object in current.subtracting(newValue) { removeToManyValue(object, at: slot) }
        for object in newValue.subtracting(current) { addToManyValue(object, at: slot) }
    }

    /// Replaces an ordered to-many relationship's contents and order (the first occurrence of an
    /// object listed twice counts).
    func setOrderedToManyValue(_ newValue: [ManagedObject], at slot: Int) {
        var seen: Set<ManagedObject> = []
        let order = newValue.filter { seen.insert($0).inserted }
        setToManyValue(seen, at: slot)
        reorderToManyValue(order, at: slot)
    }

    /// Puts an ordered to-many relationship's objects in a new order (see
    /// `ToManyRelationship.reorder(_:)` for objects `order` has or lacks beyond its contents).
    func reorderToManyValue(_ order: [ManagedObject], at slot: Int) {
        let relationship = loadedToManyRelationship(at: slot)
        guard relationship.isOrdered, relationship.orderedCurrent != order else { return }
        willChangeSlot(slot)
        relationship.reorder(order)
    }

    /// `source` now points here through `inverse`'s inverse (`reverse`): make `inverse` point back.
    private func link(_ source: ManagedObject, through inverse: RelationshipDescription, reverse: RelationshipDescription) {
        if inverse.isToMany {
            primitiveInsert(source, intoToManyAt: inverse.slot)
            return
        }
        let previous = toOneValue(at: inverse.slot)
        guard previous !== source else { return }
        if let previous {
            if reverse.isToMany {
                previous.primitiveRemove(self, fromToManyAt: reverse.slot)
            } else if previous.toOneValue(at: reverse.slot) === self {
                previous.primitiveSetToOne(nil, at: reverse.slot)
            }
        }
        primitiveSetToOne(source, at: inverse.slot)
    }

    /// `source` no longer points here: drop it from `inverse`.
    func unlink(_ source: ManagedObject, through inverse: RelationshipDescription) {
        if inverse.isToMany {
            primitiveRemove(source, fromToManyAt: inverse.slot)
        } else if toOneValue(at: inverse.slot) === source {
            primitiveSetToOne(nil, at: inverse.slot)
        }
    }

    func primitiveSetToOne(_ object: ManagedObject?, at slot: Int) {
        willChangeSlot(slot)
        slots[slot] = .toOne(object)
    }

    func primitiveInsert(_ object: ManagedObject, intoToManyAt slot: Int, index: Int? = nil) {
        willChangeSlot(slot)
        relationshipForChange(at: slot).insert(object, at: index)
    }

    func primitiveRemove(_ object: ManagedObject, fromToManyAt slot: Int) {
        willChangeSlot(slot)
        relationshipForChange(at: slot).remove(object)
    }

    /// An ordered relationship changes with its contents loaded, so that its order is known
    /// (Core Data reads it too); an unordered one records the change without reading.
    private func relationshipForChange(at slot: Int) -> ToManyRelationship {
        let relationship = toManyRelationship(at: slot)
        return relationship.isOrdered ? loadedToManyRelationship(at: slot) : relationship
    }

    /// Relationships only link objects of one context (or objects not inserted yet). A link across
    /// contexts is refused and reported when the context saves, as Core Data refuses it.
    private func acceptsRelated(_ object: ManagedObject?, through relationship: RelationshipDescription) -> Bool {
        if let object, let destination = relationship.destinationEntity, !object.entity.isKindOf(entity: destination) {
            refuse(key: relationship.name, "cannot hold a \(object.entity.entityName); the relationship's destination is \(destination.entityName)")
            return false
        }
        guard let object, let mine = managedObjectContext, let theirs = object.managedObjectContext, mine !== theirs else {
            return true
        }
        refuse(key: relationship.name, "cannot relate objects of different contexts (\(object.objectID))")
        return false
    }

    /// Remembers a refused assignment so that the next save fails naming it.
    func refuse(key: String?, _ message: String) {
        refusedAssignments.append(ValidationError.Failure(
            code: ValidationError.invalidValue, objectID: objectID, entityName: entity.entityName,
            key: key, message: message))
        Log.context.error("refused assignment on \(entity.entityName).\(key ?? "?"): \(message)")
        managedObjectContext?.objectDidChange(self)
    }

    /// A new value is being assigned to `key`: earlier refused assignments to it no longer stand
    /// (the app has corrected them), so only a refusal of this assignment fails the next save.
    func forgetRefusedAssignments(to key: String) {
        if !refusedAssignments.isEmpty { refusedAssignments.removeAll { $0.key == key } }
    }
}
