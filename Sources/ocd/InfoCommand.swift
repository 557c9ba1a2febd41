import OpenCoreData

/// `ocd info STORE`: the store's identity, its model, its history, and each entity with its
/// properties and object count.
enum InfoCommand {
    struct Report: Encodable {
        struct Model: Encodable {
            var name: String?
            var versionIdentifiers: [String]
            var hash: String
        }

        struct History: Encodable {
            var transactions: Int
            var changes: Int
            var currentToken: String?
        }

        struct Entity: Encodable {
            var name: String
            var superentity: String?
            /// Objects of exactly this entity (a subentity's are counted under it).
            var objects: Int
            var properties: [Property]
        }

        struct Property: Encodable {
            var name: String
            /// An attribute type (`string`, `integer16`, ...), or `to-one` / `to-many`.
            var type: String
            var destination: String?
            var isOptional: Bool
        }

        var store: String
        var identifier: String
        var model: Model
        var history: History
        var entities: [Entity]
    }

    static func run(_ arguments: Arguments) throws(ToolError) {
        let store = try OpenedStore(path: arguments.storePath)
        let report = try report(of: store)
        if arguments.has("json") {
            Output.line(try Output.json(report))
        } else {
            print(report)
        }
    }

    static func report(of store: OpenedStore) throws(ToolError) -> Report {
        let context = store.container.newBackgroundContext()
        do {
            return try context.performAndWait {
                let schema = ModelSchema(model: store.model)
                return Report(
                    store: store.displayName, identifier: store.store.identifier,
                    model: Report.Model(name: store.model.name, versionIdentifiers: store.model.versionIdentifiers.sorted(),
                                        hash: schema.versionHash),
                    history: try history(in: context, store: store),
                    entities: try store.model.entities.map { entity in try self.entity(entity, in: context) })
            }
        } catch {
            throw ToolError(error)
        }
    }

    private static func history(in context: ManagedObjectContext, store: OpenedStore) throws -> Report.History {
        let transactions = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        transactions.resultType = .count
        let changes = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        changes.resultType = .count
        changes.fetchRequest = PersistentHistoryChange.fetchRequest
        let token = try store.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        return Report.History(transactions: try count(transactions, in: context), changes: try count(changes, in: context),
                              currentToken: token?.description)
    }

    private static func count(_ request: PersistentHistoryChangeRequest, in context: ManagedObjectContext) throws -> Int {
        (try context.execute(request) as? PersistentHistoryResult)?.result as? Int ?? 0
    }

    private static func entity(_ entity: EntityDescription, in context: ManagedObjectContext) throws -> Report.Entity {
        let request = FetchRequest<ManagedObject>(entityName: entity.name ?? "")
        request.includesSubentities = false
        let properties = entity.properties.filter { !$0.isTransient }.map { property in
            let relationship = property as? RelationshipDescription
            return Report.Property(
                name: property.name,
                type: relationship.map { $0.isToMany ? "to-many" : "to-one" } ?? (property as? AttributeDescription)?.attributeType.description ?? "?",
                destination: relationship?.destinationEntity?.name, isOptional: property.isOptional)
        }
        return Report.Entity(name: entity.name ?? "", superentity: entity.superentity?.name, objects: try context.count(for: request),
                             properties: properties)
    }

    private static func print(_ report: Report) {
        Output.line("store       \(report.store)")
        Output.line("identifier  \(report.identifier)")
        var model = report.model.name.map { "'\($0)'" } ?? "unnamed"
        if !report.model.versionIdentifiers.isEmpty { model += " version \(report.model.versionIdentifiers.joined(separator: ", "))" }
        Output.line("model       \(model), hash \(report.model.hash)")
        let history = report.history
        Output.line("history     \(Output.count(history.transactions, "transaction")), \(Output.count(history.changes, "change")); current token \(history.currentToken ?? "none")")
        Output.line("entities")
        for entity in report.entities {
            let inherits = entity.superentity.map { " (a \($0))" } ?? ""
            Output.line("  \(entity.name)\(inherits): \(Output.count(entity.objects, "object"))")
            let rows = entity.properties.map { property in
                [property.name, property.destination.map { "\(property.type) \($0)" } ?? property.type, property.isOptional ? "optional" : ""]
            }
            Output.table(rows, indent: "    ").forEach(Output.line)
        }
    }
}
