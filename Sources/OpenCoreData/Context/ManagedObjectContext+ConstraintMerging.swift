/// Folding an object of a save into the object that holds its constrained values, and taking
/// back an object's changes: the two ways a merge policy resolves a constraint conflict.
///
/// Folding moves everything that points to the folded object over to the holder, so that no
/// object loses a link: the folded object's to-many relationships join the holder's (under
/// every policy), other objects' relationships to it point to the holder, and only then does it
/// leave the context (a new object is forgotten; a stored one is deleted, its row with it). The
/// holder takes the folded object's attribute and to-one values under object-trump (the ones it
/// changed; every one for a new object, which Core Data counts as changed) and overwrite
/// (every one); under store-trump and rollback it keeps its own. Only properties both objects
/// have move: in an entity hierarchy the holder may be of a sibling entity.
extension ManagedObjectContext {
    /// Folds `object` into `holder`, leaving the references to it and its removal for
    /// ``finishFolding(_:)``, which does them once for every object folded in a round.
    func fold(_ object: ManagedObject, into holder: ManagedObject, folding: inout ConstraintFolding) {
        let shared = object.entity.slots.filter { property in
            property.slot < holder.entity.slots.count && holder.entity.slots[property.slot] === property
        }
        for property in valuesTaken(from: object, among: shared) {
            let slot = property.slot
            if property is AttributeDescription {
                let value = object.attributeValue(at: slot)
                if holder.attributeValue(at: slot) != value { holder.setAttributeValue(value, at: slot) }
            } else {
                let target = object.toOneValue(at: slot).map { $0 === object ? holder : $0 }
                if holder.toOneValue(at: slot) !== target { holder.setToOneValue(target, at: slot) }
            }
        }
        for case let relationship as RelationshipDescription in object.entity.slots {
            let slot = relationship.slot
            if relationship.isToMany {
                let keeps = shared.contains { $0 === relationship }
                for member in object.toManyValue(at: slot) {
                    object.removeToManyValue(member, at: slot)
                    if keeps { holder.addToManyValue(member === object ? holder : member, at: slot) }
                }
            } else if object.toOneValue(at: slot) != nil {
                // Cleared, not left to the delete rules: a cascade would delete what it points to.
                object.setToOneValue(nil, at: slot)
            }
        }
        folding.record(object, into: holder)
    }

    /// The attributes and to-ones whose values the holder takes from a folded object.
    private func valuesTaken(from object: ManagedObject, among shared: [PropertyDescription]) -> [PropertyDescription] {
        let candidates = shared.filter { property in
            property.isPersistent && ((property as? RelationshipDescription).map { !$0.isToMany } ?? true)
        }
        switch mergePolicy.mergeType {
        case .overwriteMergePolicyType:
            return candidates
        case .mergeByPropertyObjectTrumpMergePolicyType:
            if object.state.isInserted { return candidates }
            let changed = Set(object.changedSlots)
            return candidates.filter { changed.contains($0.slot) }
        default:
            return []
        }
    }

    /// Points every registered object's relationships to a folded object at its holder (or at
    /// nothing, where the holder's entity does not fit the relationship), then removes the
    /// folded objects.
    ///
    /// Objects known only to the store (faults, rows never loaded) may still point to a folded
    /// stored object through relationships without an inverse, as they would after any deletion.
    func finishFolding(_ folding: ConstraintFolding) {
        guard !folding.isEmpty else { return }
        for other in registry.objects where !other.state.isFault && !other.isDeleted && !folding.isFolded(other) {
            for case let relationship as RelationshipDescription in other.entity.slots {
                redirect(relationship, of: other, folding: folding)
            }
        }
        for object in folding.folded where object.managedObjectContext === self && !object.isDeleted {
            delete(object)
        }
    }

    private func redirect(_ relationship: RelationshipDescription, of object: ManagedObject, folding: ConstraintFolding) {
        let slot = relationship.slot
        guard slot < object.slots.count else { return }
        func replacement(for folded: ManagedObject) -> ManagedObject? {
            let holder = folding.holder(of: folded)
            return relationship.destinationEntity.map { holder.entity.isKindOf(entity: $0) } == true ? holder : nil
        }
        switch object.slots[slot] {
        case .toOne(let target?) where folding.isFolded(target):
            object.setToOneValue(replacement(for: target), at: slot)
        case .toMany(let members):
            let folded = (members.current ?? members.added).filter(folding.isFolded)
            for target in folded {
                object.removeToManyValue(target, at: slot)
                if let holder = replacement(for: target) { object.addToManyValue(holder, at: slot) }
            }
        default:
            break
        }
    }

    /// Puts back the saved values of some of a stored object's changed properties, through the
    /// setters, so that inverses follow and observers hear of it; the properties are then
    /// unchanged.
    func takeBackChanges(of object: ManagedObject, at slots: [Int]) {
        for slot in slots {
            switch object.savedValues[slot] {
            case .attribute(let value)?:
                object.setAttributeValue(value, at: slot)
                object.savedValues[slot] = nil
            case .toOne(let target)?:
                object.setToOneValue(target, at: slot)
                object.savedValues[slot] = nil
            default:
                guard case .toMany(let members) = object.slots[slot] else { continue }
                for added in members.added { object.removeToManyValue(added, at: slot) }
                for removed in members.removed { object.addToManyValue(removed, at: slot) }
            }
        }
    }
}

/// The objects folded in one round of conflict resolution, each with the object it was folded
/// into (which may itself be folded later in the round: ``holder(of:)`` follows the chain).
struct ConstraintFolding {
    private var holders: [ObjectIdentifier: ManagedObject] = [:]
    private(set) var folded: [ManagedObject] = []

    var isEmpty: Bool { folded.isEmpty }

    func isFolded(_ object: ManagedObject) -> Bool { holders[ObjectIdentifier(object)] != nil }

    mutating func record(_ object: ManagedObject, into holder: ManagedObject) {
        holders[ObjectIdentifier(object)] = holder
        folded.append(object)
    }

    /// The object a folded one ends up in.
    func holder(of object: ManagedObject) -> ManagedObject {
        var current = object
        while let next = holders[ObjectIdentifier(current)] { current = next }
        return current
    }
}
