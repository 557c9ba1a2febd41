/// Which rows of a merge concern which of a context's controllers.
///
/// Controllers are grouped by the entities they fetch, so that a row's key is made once per
/// group. In a group, controllers whose guard requires an attribute to equal a constant are
/// indexed by that constant: a row's new values are checked only against the controllers its
/// own value picks out, and those without such a term. Rows a controller may show already are
/// found by its row filter, a test of nanoseconds per row.
///
/// The table is made from the controllers' engines and guards as they were; ``isCurrent(for:)``
/// tells when it no longer describes them.
struct RoutingTable {
    enum Route {
        /// No row concerns the controller.
        case none
        /// The controller must hear the whole merge (its rows' objects could not be found).
        case everyRow
        /// The rows that concern it.
        case rows([ManagedObjectID])
    }

    /// A controller as the table indexed it. Plain values, no references counted: the router
    /// asks every entry at every merge. ``engine`` is read only once ``isCurrent(for:)`` has
    /// found the controller alive with the same engine.
    private struct Entry {
        let controller: ObjectIdentifier
        let engineGeneration: Int
        let guardRevision: Int?
        unowned(unsafe) let engine: FetchedResultsEngine?
    }

    private struct Group {
        let coding: RowKeyCoding
        var members: [Int] = []
        /// Members whose guard requires an attribute to equal a constant: by attribute, then by
        /// the constant's key.
        var keyed: [ObjectIdentifier: (attribute: AttributeDescription, members: [MatchKey: [Int]])] = [:]
        /// Members whose guard has no such term.
        var unkeyed: [Int] = []
    }

    /// The entities a coding encodes, and its store: controllers with equal ones make the same
    /// row keys.
    private struct GroupKey: Hashable {
        let entities: [ObjectIdentifier]
        let storeIdentifier: String

        init(_ coding: RowKeyCoding) {
            entities = coding.entities.map(ObjectIdentifier.init)
            storeIdentifier = coding.storeIdentifier
        }
    }

    /// By the controllers' positions in the list the table was made from.
    private var entries: [Entry] = []
    private var groups: [Group] = []

    init(_ controllers: [AnyFetchedResultsController]) {
        var groupOf: [GroupKey: Int] = [:]
        for (position, controller) in controllers.enumerated() {
            let engine = controller.engine
            entries.append(Entry(controller: ObjectIdentifier(controller), engineGeneration: controller.engineGeneration,
                                 guardRevision: engine?.guardRevision, engine: engine))
            guard let engine else { continue }
            let key = GroupKey(engine.coding)
            let group: Int
            if let known = groupOf[key] {
                group = known
            } else {
                group = groups.count
                groupOf[key] = group
                groups.append(Group(coding: engine.coding))
            }
            groups[group].members.append(position)
            if let equality = engine.rowGuard.equality {
                groups[group].keyed[ObjectIdentifier(equality.attribute), default: (equality.attribute, [:])]
                    .members[equality.key, default: []].append(position)
            } else {
                groups[group].unkeyed.append(position)
            }
        }
    }

    /// Whether the table still describes these controllers, all alive: the same ones (a
    /// controller added since makes its router drop the table, so an identifier is not reused
    /// unseen), in the same order, with the same engines and guards.
    func isCurrent(for controllers: [AnyFetchedResultsController]) -> Bool {
        guard controllers.count == entries.count else { return false }
        for position in controllers.indices {
            let controller = controllers[position]
            guard ObjectIdentifier(controller) == entries[position].controller,
                  controller.engineGeneration == entries[position].engineGeneration,
                  controller.engine?.guardRevision == entries[position].guardRevision else { return false }
        }
        return true
    }

    /// Whether the controller at `position` still has the engine the table indexed.
    func indexes(_ controller: AnyFetchedResultsController, at position: Int) -> Bool {
        controller.engine != nil && controller.engineGeneration == entries[position].engineGeneration
    }

    /// Which rows of the merge concern each controller, by position.
    func routes(of digest: MergeDigest) -> [Route] {
        var routes = [Route](repeating: .none, count: entries.count)
        guard !digest.isEmpty else { return routes }
        var routed = [[ManagedObjectID]](repeating: [], count: entries.count)
        for group in groups {
            let rows = digest.rows(for: group.coding)
            guard !rows.isEmpty else { continue }
            for member in group.members {
                guard let engine = entries[member].engine else { continue }
                for row in rows where engine.mayHold(row.rowKey) { routed[member].append(row.id) }
            }
            do {
                for row in rows {
                    guard let object = try digest.object(for: row.id) else { continue }
                    forEachCandidate(in: group, for: object) { member in
                        if entries[member].engine?.rowGuard.admits(object) ?? true { routed[member].append(row.id) }
                    }
                }
            } catch {
                // The controllers meet the same failure reading the rows, and report it.
                for member in group.members { routes[member] = .everyRow }
            }
        }
        for (position, ids) in routed.enumerated() where !ids.isEmpty {
            if case .none = routes[position] { routes[position] = .rows(ids) }
        }
        return routes
    }

    /// Calls `body` with each member whose guard the object's values might pass: those not
    /// indexed, and those its values pick out in the index.
    private func forEachCandidate(in group: Group, for object: ManagedObject, _ body: (Int) -> Void) {
        group.unkeyed.forEach(body)
        for (attribute, members) in group.keyed.values {
            switch MatchKey.lookup(object.attributeValue(attribute)) {
            case .key(let key): members[key]?.forEach(body)
            case .none: break
            case .any: members.values.joined().forEach(body)
            }
        }
    }
}
