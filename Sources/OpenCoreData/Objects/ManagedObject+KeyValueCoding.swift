import Foundation

/// Key-value coding, which Foundation on Linux lacks: reading and writing properties by name.
extension ManagedObject {
    /// The value of a property: `NSNumber` for numbers and booleans (as in Core Data, so `as? Int`
    /// works), `String`, `Date`, `Data`, `UUID`, `URL` or `NSDecimalNumber` for other attributes,
    /// the destination object for a to-one relationship, `Set<ManagedObject>` for a to-many, and
    /// an `NSOrderedSet` of the objects for an ordered to-many, as in Core Data.
    /// A transformable attribute gives the value its transformer reads back from the stored data.
    ///
    /// ```swift
    /// let wins = team.value(forKey: "wins") as? Int
    /// ```
    ///
    /// An unknown key returns nil and is logged (Core Data raises an exception); check keys with
    /// ``validateValue(_:forKey:)`` or ``EntityDescription/propertiesByName``.
    public func value(forKey key: String) -> Any? {
        guard let property = entity.property(named: key) else {
            Log.context.error("value(forKey:): \(entity.entityName) has no property '\(key)'")
            return nil
        }
        switch property {
        case let attribute as AttributeDescription:
            return attribute.keyValue(of: attributeValue(at: attribute.slot))
        case let relationship as RelationshipDescription where relationship.isToMany && relationship.isOrdered:
            return NSOrderedSet(array: orderedToManyValue(at: relationship.slot))
        case let relationship as RelationshipDescription where relationship.isToMany:
            return toManyValue(at: relationship.slot)
        default:
            return toOneValue(at: property.slot)
        }
    }

    /// Sets a property by name, keeping inverse relationships in step.
    ///
    /// Values are converted as Core Data converts them: a numeric or boolean attribute takes any
    /// Swift number, `Bool`, `Decimal` or `NSNumber` (what `JSONSerialization` produces), when the
    /// value fits exactly: an integer attribute takes `3.0` but not `3.5` or a value beyond its
    /// width, a boolean takes 0 and 1, floating-point attributes round to their precision. NaN is
    /// refused (Core Data's SQLite store would silently keep NULL); infinities are stored. A
    /// transformable attribute takes what its value transformer can turn into data. A value
    /// of the wrong type, one that does not fit, or an unknown key is not stored: the next
    /// ``ManagedObjectContext/save()`` throws a ``ValidationError`` naming the entity, the key and
    /// the reason, and nothing is written.
    ///
    /// ```swift
    /// team.setValue("Brazil", forKey: "teamName")
    /// team.setValue(player, forKey: "captain")
    /// ```
    ///
    /// A to-many relationship takes a set, an array or an `NSOrderedSet` of objects; an ordered
    /// one keeps the order of an array or ordered set.
    public func setValue(_ value: Any?, forKey key: String) {
        guard let property = entity.property(named: key) else {
            refuse(key: key, "\(entity.entityName) has no property '\(key)'")
            return
        }
        forgetRefusedAssignments(to: key)
        switch property {
        case let attribute as AttributeDescription where attribute.isDerived:
            refuseDerived(attribute)
        case let attribute as AttributeDescription:
            switch attribute.storageConversion(of: value) {
            case .success(let stored): setAttributeValue(stored, at: attribute.slot)
            case .failure(let refusal): refuse(key: key, refusal.reason)
            }
        case let relationship as RelationshipDescription where relationship.isToMany:
            guard let objects = Self.objectList(from: value) else {
                refuse(key: key, "a to-many relationship takes a set, array or ordered set of objects")
                return
            }
            if relationship.isOrdered {
                setOrderedToManyValue(objects, at: relationship.slot)
            } else {
                setToManyValue(Set(objects), at: relationship.slot)
            }
        default:
            let unwrapped = flattenOptional(value)
            guard unwrapped == nil || unwrapped is ManagedObject else {
                refuse(key: key, "a to-one relationship takes an object or nil")
                return
            }
            setToOneValue(unwrapped as? ManagedObject, at: property.slot)
        }
    }

    /// Follows a dotted path through relationships: `"team.teamName"`. Through a to-many it
    /// collects the values into a set; a final `@count` counts a to-many relationship.
    ///
    /// ```swift
    /// player.value(forKeyPath: "team.teamName") as? String
    /// team.value(forKeyPath: "players.@count") as? Int
    /// ```
    public func value(forKeyPath keyPath: String) -> Any? {
        let keys = keyPath.split(separator: ".").map(String.init)
        guard let first = keys.first else { return nil }
        var current: Any? = value(forKey: first)
        for key in keys.dropFirst() {
            if let ordered = current as? NSOrderedSet {
                current = Set(ordered.array.compactMap { $0 as? ManagedObject })
            }
            if key == "@count" {
                return (current as? Set<ManagedObject>).map { NSNumber(value: $0.count) }
            }
            switch current {
            case let object as ManagedObject:
                current = object.value(forKey: key)
            case let objects as Set<ManagedObject>:
                current = Set(objects.compactMap { $0.value(forKey: key) as? AnyHashable })
            default:
                return nil
            }
        }
        return current
    }

    /// Sets a value at the end of a dotted path through to-one relationships.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        var keys = keyPath.split(separator: ".").map(String.init)
        guard let last = keys.popLast() else { return }
        var target: ManagedObject = self
        for key in keys {
            guard let next = target.value(forKey: key) as? ManagedObject else {
                refuse(key: keyPath, "'\(key)' is not a to-one relationship holding an object")
                return
            }
            target = next
        }
        target.setValue(value, forKey: last)
    }

    /// A live view of a to-many relationship: adding and removing objects changes the
    /// relationship (and the inverse) at once.
    ///
    /// ```swift
    /// team.mutableSetValue(forKey: "players").add(player)
    /// ```
    public func mutableSetValue(forKey key: String) -> RelationshipSet {
        let relationship = entity.property(named: key) as? RelationshipDescription
        if relationship?.isToMany != true {
            refuse(key: key, "\(entity.entityName) has no to-many relationship '\(key)'")
        }
        return RelationshipSet(owner: self, slot: relationship?.isToMany == true ? relationship?.slot : nil)
    }

    /// Checks that `value` could be stored under `key` (known key, right type) without storing it.
    ///
    /// - Throws: ``ObjectGraphError/unknownKey`` or ``ValidationError/invalidValue``.
    public func validateValue(_ value: Any?, forKey key: String) throws {
        guard let property = entity.property(named: key) else {
            throw ObjectGraphError(ObjectGraphError.unknownKey, "\(entity.entityName) has no property '\(key)'")
        }
        let refusal: String?
        switch property {
        case let attribute as AttributeDescription:
            if case .failure(let refused) = attribute.storageConversion(of: value) {
                refusal = refused.reason
            } else {
                refusal = nil
            }
        case let relationship as RelationshipDescription where relationship.isToMany:
            refusal = Self.objectList(from: value) == nil ? "\(String(describing: value)) does not fit \(property)" : nil
        default:
            let fits = flattenOptional(value) == nil || flattenOptional(value) is ManagedObject
            refusal = fits ? nil : "\(String(describing: value)) does not fit \(property)"
        }
        if let refusal {
            throw ValidationError(failures: [ValidationError.Failure(
                code: ValidationError.invalidValue, objectID: objectID, entityName: entity.entityName,
                key: key, message: refusal)])
        }
    }

    /// The objects of a set, array or ordered set, in its order; nil if it holds anything else.
    private static func objectList(from value: Any?) -> [ManagedObject]? {
        guard let value = flattenOptional(value) else { return [] }
        if let set = value as? Set<ManagedObject> { return Array(set) }
        if let ordered = value as? NSOrderedSet { return objectList(from: ordered.array) }
        guard let sequence = value as? any Sequence else { return nil }
        var result: [ManagedObject] = []
        for element in sequence {
            guard let object = element as? ManagedObject else { return nil }
            result.append(object)
        }
        return result
    }
}

/// A to-many relationship you can change in place, returned by
/// ``ManagedObject/mutableSetValue(forKey:)`` (Core Data returns an `NSMutableSet` proxy).
public struct RelationshipSet: Sequence {
    let owner: ManagedObject
    let slot: Int?

    /// The objects currently in the relationship.
    public var objects: Set<ManagedObject> {
        slot.map { owner.toManyValue(at: $0) } ?? []
    }

    /// How many objects the relationship holds.
    public var count: Int { objects.count }

    /// Whether `object` is in the relationship.
    public func contains(_ object: ManagedObject) -> Bool { objects.contains(object) }

    /// Adds an object, updating its inverse.
    public func add(_ object: ManagedObject) {
        if let slot { owner.addToManyValue(object, at: slot) }
    }

    /// Adds objects, updating their inverses.
    public func addObjects(from objects: some Sequence<ManagedObject>) {
        for object in objects { add(object) }
    }

    /// Removes an object, updating its inverse.
    public func remove(_ object: ManagedObject) {
        if let slot { owner.removeToManyValue(object, at: slot) }
    }

    /// Removes every object.
    public func removeAllObjects() {
        for object in objects { remove(object) }
    }

    public func makeIterator() -> Set<ManagedObject>.Iterator { objects.makeIterator() }
}
