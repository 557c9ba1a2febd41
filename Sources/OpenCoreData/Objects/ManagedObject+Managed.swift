import Foundation

/// Typed access for `@Managed` properties.
extension ManagedObject {
    // `@Managed` reaches these through its generic subscript, from the app's module, so they
    // run unspecialized, and each read asked the runtime for `Optional<Value>`'s metadata. The
    // attribute types' own Swift types get specialized copies, which the generic entry
    // dispatches to by comparing `Value`. The work itself is in a function of its own, never
    // inlined: inlined, its request for `Optional<Value>`'s metadata (about 450 instructions,
    // as much as the rest of a read) moved ahead of the dispatch, into every call.
    @_specialize(where Value == String)
    @_specialize(where Value == String?)
    @_specialize(where Value == Int16)
    @_specialize(where Value == Int16?)
    @_specialize(where Value == Int32)
    @_specialize(where Value == Int32?)
    @_specialize(where Value == Int64)
    @_specialize(where Value == Int64?)
    @_specialize(where Value == Int)
    @_specialize(where Value == Int?)
    @_specialize(where Value == Double)
    @_specialize(where Value == Double?)
    @_specialize(where Value == Float)
    @_specialize(where Value == Float?)
    @_specialize(where Value == Bool)
    @_specialize(where Value == Bool?)
    @_specialize(where Value == Date)
    @_specialize(where Value == Date?)
    @_specialize(where Value == Data)
    @_specialize(where Value == Data?)
    @_specialize(where Value == UUID)
    @_specialize(where Value == UUID?)
    func managedValue<Value: ManagedPropertyValue>(_ type: Value.Type, storage: AnyKeyPath) -> Value {
        readManagedValue(type, storage: storage)
    }

    @inline(never)
    private func readManagedValue<Value: ManagedPropertyValue>(_ type: Value.Type, storage: AnyKeyPath) -> Value {
        if state.isProbe { return KeyPathNames.probeRead(Value.self, storage: storage) }
        let property = managedProperty(for: storage)
        switch property {
        case let attribute as AttributeDescription:
            let stored = attributeValue(at: attribute.slot)
            if let value = stored.typedValue(as: Value.self, for: attribute.attributeType) { return value }
            if attribute.type == .transformableAttributeType {
                return Value._fromManaged(attribute.transformedValue(of: stored))
            }
            return Value._fromManaged(stored.swiftValue(for: attribute.attributeType))
        case let relationship as RelationshipDescription where relationship.isToMany && relationship.isOrdered:
            return Value._fromManaged(orderedToManyValue(at: relationship.slot))
        case let relationship as RelationshipDescription where relationship.isToMany:
            return Value._fromManaged(toManyValue(at: relationship.slot))
        default:
            return Value._fromManaged(toOneValue(at: property.slot))
        }
    }

    @_specialize(where Value == String)
    @_specialize(where Value == String?)
    @_specialize(where Value == Int16)
    @_specialize(where Value == Int16?)
    @_specialize(where Value == Int32)
    @_specialize(where Value == Int32?)
    @_specialize(where Value == Int64)
    @_specialize(where Value == Int64?)
    @_specialize(where Value == Int)
    @_specialize(where Value == Int?)
    @_specialize(where Value == Double)
    @_specialize(where Value == Double?)
    @_specialize(where Value == Float)
    @_specialize(where Value == Float?)
    @_specialize(where Value == Bool)
    @_specialize(where Value == Bool?)
    @_specialize(where Value == Date)
    @_specialize(where Value == Date?)
    @_specialize(where Value == Data)
    @_specialize(where Value == Data?)
    @_specialize(where Value == UUID)
    @_specialize(where Value == UUID?)
    func setManagedValue<Value: ManagedPropertyValue>(_ value: Value, storage: AnyKeyPath) {
        writeManagedValue(value, storage: storage)
    }

    @inline(never)
    private func writeManagedValue<Value: ManagedPropertyValue>(_ value: Value, storage: AnyKeyPath) {
        let property = managedProperty(for: storage)
        if !refusedAssignments.isEmpty { forgetRefusedAssignments(to: property.name) }
        switch property {
        case let attribute as AttributeDescription:
            if attribute.isDerived {
                refuseDerived(attribute)
                return
            }
            if let stored = PropertyValue.typedStorage(of: value, for: attribute.attributeType) {
                setAttributeValue(stored, at: attribute.slot)
                return
            }
            switch attribute.storageConversion(of: value._toManaged) {
            case .success(let stored): setAttributeValue(stored, at: attribute.slot)
            case .failure(let refusal): refuse(key: attribute.name, refusal.reason)
            }
        case let relationship as RelationshipDescription where relationship.isToMany:
            let objects = value._toManaged as? [ManagedObject] ?? Array(value._toManaged as? Set<ManagedObject> ?? [])
            if relationship.isOrdered {
                setOrderedToManyValue(objects, at: relationship.slot)
            } else {
                setToManyValue(Set(objects), at: relationship.slot)
            }
        default:
            setToOneValue(value._toManaged as? ManagedObject, at: property.slot)
        }
    }

    private func managedProperty(for storage: AnyKeyPath) -> PropertyDescription {
        // The identity of a key path is stable: ManagedPropertyNames keeps each one alive.
        let id = ObjectIdentifier(storage)
        if let slot = entity.slotByStorageKeyPath.slot(for: id) { return entity.slots[slot] }
        let name = ManagedPropertyNames.name(for: storage)
        guard let property = entity.property(named: name) else {
            preconditionFailure("\(type(of: self)).\(name) is declared @Managed but entity \(entity.entityName) has no property '\(name)'; build the model with ManagedObjectModel(managedObjectClasses:).")
        }
        entity.slotByStorageKeyPath.remember(property.slot, for: id)
        return property
    }
}

/// Maps a `@Managed` wrapper's storage key path (`\Team._wins`) to the property name (`wins`).
///
/// Swift creates one key path object per declaration, so the cache is keyed by the object's
/// identity; it keeps each key path alive so an address is never reused for another one.
enum ManagedPropertyNames {
    private struct Entry: @unchecked Sendable {
        let keyPath: AnyKeyPath
        let name: String
    }

    private static let cache = Locked<[ObjectIdentifier: Entry]>([:])

    static func name(for storage: AnyKeyPath) -> String {
        let id = ObjectIdentifier(storage)
        if let entry = cache.withLock({ $0[id] }) { return entry.name }
        let name = parseName(String(describing: storage))
        cache.withLock { $0[id] = Entry(keyPath: storage, name: name) }
        return name
    }

    /// `\Team._wins` → `wins`.
    static func parseName(_ description: String) -> String {
        let component = description.split(separator: ".").last.map(String.init) ?? description
        return component.hasPrefix("_") ? String(component.dropFirst()) : component
    }
}
