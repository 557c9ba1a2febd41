import Foundation

/// The entities history fetch requests name: ``PersistentHistoryTransaction/entityDescription``
/// and ``PersistentHistoryChange/entityDescription``, in a model of their own, so that predicates
/// on history are parsed, checked and evaluated as predicates on objects are.
///
/// - `PersistentHistoryTransaction`: `timestamp` (date), `transactionNumber` (integer 64),
///   `author`, `contextName`, `bundleID`, `processID`, `storeID` (strings), and `changes`
///   (to-many).
/// - `PersistentHistoryChange`: `changeID` (integer 64), `changeType` (integer 16, the raw value
///   of ``PersistentHistoryChangeType``), `changedEntity` (string: the entity's name, where Core
///   Data compares with an entity description), and `transaction` (to-one, so that
///   `transaction.author` filters changes by author).
enum PersistentHistoryModel {
    static let transactionEntityName = "PersistentHistoryTransaction"
    static let changeEntityName = "PersistentHistoryChange"

    static let model: ManagedObjectModel = {
        let transaction = EntityDescription(name: transactionEntityName)
        let change = EntityDescription(name: changeEntityName)
        let changes = RelationshipDescription(name: "changes", destination: change, toMany: true)
        let owner = RelationshipDescription(name: "transaction", destination: transaction)
        changes.inverseRelationship = owner
        owner.inverseRelationship = changes
        transaction.properties = [
            AttributeDescription(name: "timestamp", type: .dateAttributeType),
            AttributeDescription(name: "transactionNumber", type: .integer64AttributeType),
            AttributeDescription(name: "author", type: .stringAttributeType),
            AttributeDescription(name: "contextName", type: .stringAttributeType),
            AttributeDescription(name: "bundleID", type: .stringAttributeType),
            AttributeDescription(name: "processID", type: .stringAttributeType),
            AttributeDescription(name: "storeID", type: .stringAttributeType),
            changes,
        ]
        change.properties = [
            AttributeDescription(name: "changeID", type: .integer64AttributeType),
            AttributeDescription(name: "changeType", type: .integer16AttributeType),
            AttributeDescription(name: "changedEntity", type: .stringAttributeType),
            owner,
        ]
        let model = ManagedObjectModel(entities: [transaction, change])
        // Built from constants: a failure here is a defect of this file, caught by its tests.
        try? model.compile()
        return model
    }()

    static var transaction: EntityDescription { entity(transactionEntityName) }
    static var change: EntityDescription { entity(changeEntityName) }

    private static func entity(_ name: String) -> EntityDescription {
        guard let entity = model.compiledEntity(named: name) else {
            preconditionFailure("the persistent history model has no entity \(name)")
        }
        return entity
    }
}

/// A recorded transaction as predicates see it.
struct HistoryTransactionSubject: PredicateSubject {
    let record: HistoryTransactionRecord
    let storeID: String

    var subjectID: ManagedObjectID? { nil }

    func attributeValue(_ attribute: AttributeDescription) -> PropertyValue {
        switch attribute.name {
        case "timestamp": .date(record.timestamp)
        case "transactionNumber": .integer(record.number)
        case "author": record.author.map(PropertyValue.string) ?? .null
        case "contextName": record.contextName.map(PropertyValue.string) ?? .null
        case "bundleID": .string(record.bundleID)
        case "processID": .string(record.processID)
        case "storeID": .string(storeID)
        default: .null
        }
    }

    func toOneSubject(_ relationship: RelationshipDescription) -> (any PredicateSubject)? { nil }

    func toManySubjects(_ relationship: RelationshipDescription) -> [any PredicateSubject] {
        record.changes.map { HistoryChangeSubject(record: $0, transaction: self) }
    }

    func rawValue(forKey key: String) -> Any? { nil }
}

/// A recorded change as predicates see it.
struct HistoryChangeSubject: PredicateSubject {
    let record: HistoryChangeRecord
    let transaction: HistoryTransactionSubject

    var subjectID: ManagedObjectID? { nil }

    func attributeValue(_ attribute: AttributeDescription) -> PropertyValue {
        switch attribute.name {
        case "changeID": .integer(record.changeID)
        case "changeType": .integer(Int64(record.type.rawValue))
        case "changedEntity": .string(record.objectID.entity.entityName)
        default: .null
        }
    }

    func toOneSubject(_ relationship: RelationshipDescription) -> (any PredicateSubject)? { transaction }

    func toManySubjects(_ relationship: RelationshipDescription) -> [any PredicateSubject] { [] }

    func rawValue(forKey key: String) -> Any? { nil }
}
