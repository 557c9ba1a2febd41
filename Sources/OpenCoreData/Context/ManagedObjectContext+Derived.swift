/// Derived attributes (``DerivedAttributeDescription``), computed as a save begins: after the
/// objects' `willSave()`, before validation, so that validation and the store see the values.
extension ManagedObjectContext {
    /// Recomputes the derived attributes of the objects the save changes, and of the objects
    /// that read changed objects one relationship away; sets only values that differ.
    func updateDerivedAttributes() {
        guard managedObjectModel.hasDerivedAttributes else { return }
        let changed = objectsWithChanges()
        // Objects the save changes, then the objects reading them that it does not change.
        var targets: [(object: ManagedObject, isChanged: Bool)] = []
        var seen: Set<ObjectIdentifier> = []
        func add(_ object: ManagedObject, isChanged: Bool) {
            guard !object.isDeleted, !object.entity.derivedAttributes.isEmpty,
                  seen.insert(ObjectIdentifier(object)).inserted else { return }
            targets.append((object, isChanged))
        }
        for object in changed { add(object, isChanged: true) }
        for object in changed {
            for inverse in object.entity.derivationDependents {
                if inverse.isToMany {
                    for reader in object.toManyValue(at: inverse.slot) { add(reader, isChanged: false) }
                } else if let reader = object.toOneValue(at: inverse.slot) {
                    add(reader, isChanged: false)
                }
            }
        }
        guard !targets.isEmpty else { return }
        for (object, isChanged) in targets {
            for attribute in object.entity.derivedAttributes {
                guard let derivation = attribute.derivation else { continue }
                // now() is when the object itself was saved, not an object it reads.
                if case .now = derivation, !isChanged { continue }
                let computed = derivation.value(of: object)
                let value = computed.isNull ? computed : computed.converted(to: attribute.attributeType) ?? .null
                if object.attributeValue(at: attribute.slot) != value {
                    object.setAttributeValue(value, at: attribute.slot)
                }
            }
        }
        processPendingChanges()
    }
}

extension ManagedObject {
    /// A derived attribute's value comes from its derivation only.
    func refuseDerived(_ attribute: AttributeDescription) {
        refuse(key: attribute.name, "\(entity.entityName).\(attribute.name) is derived; its value is computed when the object is saved and cannot be set")
    }
}
