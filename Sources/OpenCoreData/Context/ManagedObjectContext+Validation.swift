extension ManagedObjectContext {
    /// Checks every object about to be saved and throws one error listing every failure.
    func validateForSave() throws {
        var failures: [ValidationError.Failure] = []
        for object in objectsWithChanges() {
            if object.isDeleted {
                failures += denyRuleFailures(of: object)
                failures += hookFailures(of: object) { try $0.validateForDelete() }
            } else {
                failures += object.refusedAssignments
                failures += propertyFailures(of: object)
                failures += hookFailures(of: object) { object in
                    if object.state.isInserted { try object.validateForInsert() } else { try object.validateForUpdate() }
                }
            }
        }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    private func failure(_ code: CoreDataErrorCode, _ object: ManagedObject, _ key: String?, _ message: String) -> ValidationError.Failure {
        ValidationError.Failure(code: code, objectID: object.objectID, entityName: object.entity.entityName,
                                key: key, message: message)
    }

    /// The attribute's validation predicates its value fails, each with its code and warning.
    private func predicateFailures(of object: ManagedObject, _ attribute: AttributeDescription) -> [ValidationError.Failure] {
        let value = object.value(forKey: attribute.name)
        return attribute.validationRules.filter { !$0.predicate.evaluate(with: value) }.map { rule in
            let warning = rule.warning.isEmpty ? "" : ": \(rule.warning)"
            return failure(rule.code, object, attribute.name,
                           "\(value.map { String(describing: $0) } ?? "nil") does not satisfy \(rule.predicate.predicateFormat)\(warning)")
        }
    }

    private func propertyFailures(of object: ManagedObject) -> [ValidationError.Failure] {
        var failures: [ValidationError.Failure] = []
        for property in object.entity.slots {
            switch property {
            case let attribute as AttributeDescription:
                let isNull = object.attributeValue(at: attribute.slot).isNull
                if !attribute.isOptional, isNull {
                    failures.append(failure(ValidationError.missingMandatoryProperty, object, attribute.name,
                                            "is required but has no value"))
                }
                if !isNull, !attribute.validationRules.isEmpty,
                   object.state.isInserted || object.changedSlots.contains(attribute.slot) {
                    failures += predicateFailures(of: object, attribute)
                }
            case let relationship as RelationshipDescription where relationship.isToMany:
                guard object.state.isInserted || object.changedSlots.contains(relationship.slot) else { continue }
                let count = object.toManyValue(at: relationship.slot).count
                if count < relationship.minCount {
                    failures.append(failure(ValidationError.relationshipLacksMinimumCount, object, relationship.name,
                                            "holds \(count) objects; at least \(relationship.minCount) are required"))
                }
                if relationship.maxCount > 0, count > relationship.maxCount {
                    failures.append(failure(ValidationError.relationshipExceedsMaximumCount, object, relationship.name,
                                            "holds \(count) objects; at most \(relationship.maxCount) are allowed"))
                }
            case let relationship as RelationshipDescription:
                let destination = object.toOneValue(at: relationship.slot)
                if destination == nil, !relationship.isOptional {
                    failures.append(failure(ValidationError.missingMandatoryProperty, object, relationship.name,
                                            "is required but has no value"))
                }
                if let destination, destination.managedObjectContext !== self || destination.isDeleted {
                    failures.append(failure(ValidationError.invalidValue, object, relationship.name,
                                            "points to \(destination.objectID), which is deleted or not inserted in this context"))
                }
            default:
                continue
            }
        }
        return failures
    }

    private func denyRuleFailures(of object: ManagedObject) -> [ValidationError.Failure] {
        object.entity.slots.compactMap { property -> ValidationError.Failure? in
            guard let relationship = property as? RelationshipDescription, relationship.deleteRule == .denyDeleteRule else { return nil }
            let isEmpty = relationship.isToMany
                ? object.toManyValue(at: relationship.slot).allSatisfy(\.isDeleted)
                : object.toOneValue(at: relationship.slot).map(\.isDeleted) ?? true
            guard !isEmpty else { return nil }
            return failure(ValidationError.relationshipDeniedDelete, object, relationship.name,
                           "is not empty and its delete rule is deny")
        }
    }

    private func hookFailures(of object: ManagedObject, _ hook: (ManagedObject) throws -> Void) -> [ValidationError.Failure] {
        do {
            try hook(object)
            return []
        } catch let error as ValidationError {
            return error.failures
        } catch {
            return [failure(ValidationError.invalidValue, object, nil, String(describing: error))]
        }
    }
}
