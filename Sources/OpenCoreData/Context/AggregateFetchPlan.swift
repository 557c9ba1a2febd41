/// A dictionary fetch with ``ExpressionDescription``s or ``FetchRequest/propertiesToGroupBy``,
/// checked against the model: which keys group the rows, which functions each group computes,
/// which columns each dictionary holds, and how the dictionaries are filtered and ordered.
struct AggregateFetchPlan {
    enum Column {
        /// A grouped key: its value in the group.
        case key(DictionaryKey, group: Int)
        /// A function, the `function`-th of the fetch.
        case function(name: String, function: Int, resultType: AttributeType)
    }

    let groupKeys: [DictionaryKey]
    let functions: [StoreAggregateFetch.Function]
    /// The dictionaries' keys, in ``FetchRequest/propertiesToFetch`` order.
    let columns: [Column]
    /// ``FetchRequest/havingPredicate``, resolved against the dictionaries' keys.
    let having: ResolvedPredicate?
    /// The sort descriptors, each with the column it sorts by.
    let sortKeys: [(column: Int, key: ResolvedSortKey)]

    /// The plan of `request`, or nil for a plain dictionary fetch (no function, no grouping).
    init?<T>(_ request: FetchRequest<T>, entity: EntityDescription) throws {
        let fetched = request.propertiesToFetch ?? []
        let grouped = request.propertiesToGroupBy ?? []
        guard request.isGrouped else {
            if request.havingPredicate != nil {
                throw Self.error("a havingPredicate needs propertiesToGroupBy or an ExpressionDescription", entity)
            }
            return nil
        }
        groupKeys = try grouped.map { try DictionaryKey(element: $0, entity: entity) }
        var functions: [StoreAggregateFetch.Function] = []
        var columns: [Column] = []
        for element in fetched {
            if let description = element as? ExpressionDescription {
                let (function, resultType) = try Self.function(of: description, entity: entity)
                columns.append(.function(name: description.name, function: functions.count, resultType: resultType))
                functions.append(function)
                continue
            }
            let key = try DictionaryKey(element: element, entity: entity)
            guard let group = groupKeys.firstIndex(where: { $0.name == key.name }) else {
                throw Self.error("'\(key.name)' is fetched but not in propertiesToGroupBy; a grouped fetch returns only grouped keys and ExpressionDescriptions", entity, keyPath: key.name)
            }
            columns.append(.key(key, group: group))
        }
        guard !columns.isEmpty else {
            throw Self.error("a grouped fetch needs propertiesToFetch: the grouped keys and ExpressionDescriptions each dictionary holds", entity)
        }
        self.functions = functions
        self.columns = columns
        let names = Self.dictionaryEntity(columns)
        having = try request.havingPredicate.map { try $0.resolved(for: names.entity) }
        sortKeys = try (request.sortDescriptors ?? []).map { descriptor in
            let key = try descriptor.resolved(for: names.entity)
            guard let column = names.columns[key.attribute.name] else {
                throw Self.error("cannot sort grouped dictionaries by '\(descriptor.key)'; sort by a fetched key or ExpressionDescription", entity, keyPath: descriptor.key)
            }
            return (column, key)
        }
    }

    /// The name of a column.
    static func name(of column: Column) -> String {
        switch column {
        case .key(let key, _): key.name
        case .function(let name, _, _): name
        }
    }

    // MARK: Functions

    private static let functionKinds: [String: StoreAggregateFetch.Function.Kind] = [
        "sum:": .sum, "average:": .average, "min:": .min, "max:": .max, "count:": .count,
    ]

    /// The function an expression description computes, and the type of its values.
    private static func function(of description: ExpressionDescription, entity: EntityDescription) throws
        -> (StoreAggregateFetch.Function, AttributeType) {
        let shown = description.expression?.description ?? "nil"
        guard case .function(let name, let arguments)? = description.expression?.node else {
            throw error("ExpressionDescription '\(description.name)' needs an aggregate function such as sum:(wins), not \(shown)", entity)
        }
        guard let kind = functionKinds[name] else {
            throw error("ExpressionDescription '\(description.name)': \(name) is not supported; the aggregate functions are \(functionKinds.keys.sorted().joined(separator: ", "))", entity)
        }
        guard arguments.count == 1, case .keyPath(.object, let components) = arguments[0], components.count == 1,
              let property = entity.property(named: components[0]), property.isPersistent,
              property is AttributeDescription || (kind == .count && (property as? RelationshipDescription)?.isToMany == false) else {
            throw error("ExpressionDescription '\(description.name)': \(shown) needs one key path to a stored attribute of \(entity.entityName)", entity)
        }
        let natural = try naturalType(of: kind, property, description: description, entity: entity)
        return (StoreAggregateFetch.Function(kind: kind, property: property), description.expressionResultType ?? natural)
    }

    private static func naturalType(of kind: StoreAggregateFetch.Function.Kind, _ property: PropertyDescription,
                                    description: ExpressionDescription, entity: EntityDescription) throws -> AttributeType {
        let type = (property as? AttributeDescription)?.attributeType ?? .binaryData
        let natural: AttributeType? = switch kind {
        case .count: .integer64
        case .sum where type == .decimal, .average where type == .decimal: .decimal
        case .sum where type.isInteger || type == .boolean: .integer64
        case .sum where type.isNumeric, .average where type.isNumeric: .double
        case .min where ![.binaryData, .transformable].contains(type),
             .max where ![.binaryData, .transformable].contains(type): type
        default: nil
        }
        guard let natural else {
            throw error("ExpressionDescription '\(description.name)': \(kind.rawValue) cannot be computed over \(entity.entityName).\(property.name), a \(type) attribute", entity)
        }
        return natural
    }

    // MARK: Dictionary keys

    /// An entity whose attributes are the dictionaries' keys, for resolving the having predicate
    /// and the sort descriptors by name, with the column each attribute is. Keys that are not
    /// plain names, or hold objects, are left out: predicates cannot name them.
    private static func dictionaryEntity(_ columns: [Column]) -> (entity: EntityDescription, columns: [String: Int]) {
        let entity = EntityDescription(name: "Group")
        var byName: [String: Int] = [:]
        var attributes: [AttributeDescription] = []
        for (index, column) in columns.enumerated() {
            let type: AttributeType? = switch column {
            case .key(let key, _): (key.steps.last as? AttributeDescription)?.attributeType
            case .function(_, _, let resultType): resultType
            }
            let name = Self.name(of: column)
            guard let type, isValidIdentifier(name), byName[name] == nil else { continue }
            byName[name] = index
            attributes.append(AttributeDescription(name: name, type: type))
        }
        entity.properties = attributes
        // Compiling lays out the entity so that predicates resolve against it; names were checked.
        try? ManagedObjectModel(entities: [entity]).compile()
        return (entity, byName)
    }

    private static func error(_ message: String, _ entity: EntityDescription, keyPath: String? = nil) -> FetchRequestError {
        FetchRequestError(FetchRequestError.unsupportedExpression, message, entityName: entity.entityName, keyPath: keyPath)
    }
}
