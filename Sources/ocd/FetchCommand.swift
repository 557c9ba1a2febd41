import OpenCoreData

/// `ocd fetch STORE --entity E`: the matching objects, in order, as a table or as a JSON array of
/// `{"id": URI, "entity": name, "values": {...}}`.
enum FetchCommand {
    struct Row: Encodable {
        var id: String
        var entity: String
        var values: [String: JSONValue]
    }

    static func run(_ arguments: Arguments) throws(ToolError) {
        let store = try OpenedStore(path: arguments.storePath)
        let request = try FetchSpecification.request(arguments, in: store)
        let context = store.container.newBackgroundContext()
        let rows: [Row]
        do {
            rows = try context.performAndWait {
                try context.fetch(request).map { object in
                    Row(id: ObjectValues.id(object.objectID), entity: object.entity.name ?? "", values: ObjectValues.values(of: object))
                }
            }
        } catch {
            throw ToolError(error)
        }
        if arguments.has("json") {
            Output.line(try Output.json(rows))
        } else if let entity = request.entity {
            print(rows, of: entity)
        }
    }

    /// A table: the short ID, then the entity's values; a subentity's own values follow in
    /// braces, since they have no column.
    private static func print(_ rows: [Row], of entity: EntityDescription) {
        let keys = ObjectValues.keys(of: entity)
        let table = [["id"] + keys] + rows.map { row in
            var cells = [ObjectValues.shortID(row.id)]
            cells += keys.map { row.values[$0]?.text ?? "" }
            let own = row.values.filter { !keys.contains($0.key) }
            if !own.isEmpty { cells.append(JSONValue.object(own).text) }
            return cells
        }
        Output.table(table).forEach(Output.line)
        Output.line(Output.count(rows.count, "object"))
    }
}
