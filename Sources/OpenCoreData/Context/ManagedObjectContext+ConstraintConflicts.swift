/// Uniqueness constraints at save time: finding the objects of a save that claim the same
/// constrained values, among themselves (here, in memory) or against stored rows (reported by
/// the store, which checks inside its write transaction), and resolving them with the merge
/// policy before the save is tried again.
///
/// Each conflict is resolved as if the claiming objects were saved one after another: the first
/// one (or the stored row, when one holds the values) keeps them, and each next one meets it.
/// Under ``MergePolicy/mergeByPropertyObjectTrump`` and ``MergePolicy/overwrite`` the holder
/// takes the newcomer's values; under ``MergePolicy/mergeByPropertyStoreTrump`` and
/// ``MergePolicy/rollback`` it keeps its own. A new object that meets a holder is then folded
/// into it and leaves the context (see `ManagedObjectContext+ConstraintMerging.swift`); a stored
/// object whose changed values meet a holder gets its changes to them taken back under the
/// store-trump and rollback policies, and is folded into the holder (its row deleted) under the
/// others.
extension ManagedObjectContext {
    /// The conflicts among this context's inserted and changed objects, or nil when the model
    /// has no constraint (most models: nothing is looked at).
    func constraintConflictsInMemory() -> [ConstraintConflictGroup]? {
        guard managedObjectModel.entities.contains(where: { !$0.constraints.isEmpty }) else { return nil }
        var claims: [UniquenessConstraint: [ConstraintKey: (values: [PropertyValue], objects: [ManagedObject])]] = [:]
        var order: [(UniquenessConstraint, ConstraintKey)] = []
        func claim(_ object: ManagedObject, _ constraint: UniquenessConstraint) {
            guard let values = constrainedValues(of: object, constraint) else { return }
            let key = ConstraintKey(values)
            if claims[constraint]?[key] == nil { order.append((constraint, key)) }
            claims[constraint, default: [:]][key, default: (values, [])].objects.append(object)
        }
        for object in changedSet.orderedByID where !object.isDeleted && !object.entity.constraints.isEmpty {
            let changed = Set(object.changedSlots)
            for constraint in object.entity.constraints where constraint.slots.contains(where: changed.contains) {
                claim(object, constraint)
            }
        }
        for object in insertedSet.orderedByID where !object.entity.constraints.isEmpty {
            for constraint in object.entity.constraints { claim(object, constraint) }
        }
        return order.compactMap { constraint, key in
            guard let claim = claims[constraint]?[key], claim.objects.count > 1 else { return nil }
            return ConstraintConflictGroup(constraint: constraint, values: claim.values, databaseRow: nil, objects: claim.objects)
        }
    }

    /// The store's conflicts as groups of this context's objects.
    func constraintConflictGroups(_ conflicts: [StoreConstraintConflict]) -> [ConstraintConflictGroup] {
        var groups: [ConstraintConflictGroup] = []
        // A re-import conflicts on every row: finding a row's group by search would be quadratic.
        var groupIndex: [GroupKey: Int] = [:]
        for conflict in conflicts {
            guard let object = registeredObjectIfAlive(for: conflict.objectID) else { continue }
            let key = GroupKey(constraint: conflict.constraint, row: conflict.databaseRow.objectID)
            if let index = groupIndex[key] {
                groups[index].objects.append(object)
            } else {
                groupIndex[key] = groups.count
                groups.append(ConstraintConflictGroup(constraint: conflict.constraint, values: conflict.values,
                                                      databaseRow: conflict.databaseRow, objects: [object]))
            }
        }
        return groups
    }

    /// The store's conflicts on one stored row under one constraint form one group.
    private struct GroupKey: Hashable {
        let constraint: UniquenessConstraint
        let row: ManagedObjectID
    }

    /// An object's current values under a constraint, to-ones as IDs; nil when one is nil.
    func constrainedValues(of object: ManagedObject, _ constraint: UniquenessConstraint) -> [PropertyValue]? {
        var values: [PropertyValue] = []
        for property in constraint.properties {
            let value: PropertyValue = property is AttributeDescription
                ? object.attributeValue(at: property.slot)
                : object.toOneValue(at: property.slot).map { .object($0.objectID) } ?? .null
            if value.isNull { return nil }
            values.append(value)
        }
        return values
    }

    /// Applies the merge policy to constraint conflicts so that the save can be tried again, or
    /// throws when the policy is to fail. Observers (fetched results controllers) hear of the
    /// resolution before the save goes on: a folded new object as a deletion, the holder as an
    /// update.
    ///
    /// - Throws: ``ObjectGraphError/constraintConflict`` under ``MergePolicy/error``, or when
    ///   other writers keep creating conflicts; nothing is changed then.
    func resolveConstraintConflicts(_ groups: [ConstraintConflictGroup], attempt: Int) throws {
        guard !groups.isEmpty else { return }
        let count = "\(groups.count) uniqueness constraint conflict\(groups.count == 1 ? "" : "s")"
        guard mergePolicy.mergeType != .errorMergePolicyType else {
            throw ObjectGraphError(ObjectGraphError.constraintConflict,
                                   "\(count); nothing was saved (set mergePolicy to resolve them)",
                                   constraintConflicts: groups.map(ConstraintConflict.init))
        }
        guard attempt < Self.conflictAttemptLimit else {
            throw ObjectGraphError(ObjectGraphError.constraintConflict,
                                   "\(count) kept coming back while this save was merged with \(mergePolicy); nothing was saved after \(attempt) attempts",
                                   constraintConflicts: groups.map(ConstraintConflict.init))
        }
        var folding = ConstraintFolding()
        for group in groups {
            let live = group.objects.filter { object in
                object.managedObjectContext === self && !object.isDeleted && !folding.isFolded(object)
                    && constrainedValues(of: object, group.constraint).map(ConstraintKey.init) == ConstraintKey(group.values)
            }
            let holder: ManagedObject
            let newcomers: [ManagedObject]
            if let row = group.databaseRow {
                holder = databaseObject(for: row)
                newcomers = live.filter { $0 !== holder }
            } else {
                guard live.count > 1 else { continue }
                holder = live[0]
                newcomers = Array(live.dropFirst())
            }
            for object in newcomers {
                resolve(object, meeting: holder, under: group.constraint, folding: &folding)
            }
        }
        finishFolding(folding)
        processPendingChanges()
    }

    /// How many times a save resolves conflicts and tries again before it gives up (other
    /// processes may keep creating new ones).
    static let conflictAttemptLimit = 100

    /// The object of the stored row that holds the values: the registered one, or a fault that
    /// fills from the row the store just read (no second query).
    private func databaseObject(for row: RowSnapshot) -> ManagedObject {
        let object = self.object(with: row.objectID)
        if object.state.isFault {
            if case .snapshot(let cached)? = object.faultSource, cached.version >= row.version { return object }
            object.faultSource = .snapshot(row)
        }
        return object
    }

    /// One newcomer meets the holder of its values.
    private func resolve(_ object: ManagedObject, meeting holder: ManagedObject, under constraint: UniquenessConstraint,
                         folding: inout ConstraintFolding) {
        switch mergePolicy.mergeType {
        case .mergeByPropertyStoreTrumpMergePolicyType where !object.state.isInserted:
            takeBackChanges(of: object, at: constraint.slots)
        case .rollbackMergePolicyType where !object.state.isInserted:
            takeBackChanges(of: object, at: object.changedSlots)
        default:
            fold(object, into: holder, folding: &folding)
        }
    }
}
