/// The tracking fetched results controllers of one context, hearing it as one observer. Every
/// event but a merge goes to each of them; a merge goes to each only with the rows that concern
/// it, and to most of a server's controllers not at all.
///
/// A merged row concerns a controller that may show it already (its row filter says maybe) or
/// whose guard the row's new values pass (``RowGuard``): for any other controller the row would
/// change nothing. Which rows concern which controllers is worked out by a ``RoutingTable``,
/// once per merge for all of them; what is left per controller is one filter test per row, and
/// the batches of the controllers a row concerns (Docs/Scaling.md).
final class MergeRouter {
    private weak var context: ManagedObjectContext?
    private var members: [ObserverToken: WeakController] = [:] {
        didSet {
            table = nil
            listed = nil
        }
    }
    /// ``members`` as a list, made at the first event after they change.
    private var listed: [WeakController]?
    /// The controllers grouped and indexed as they were when it was made; nil when it must be
    /// made again.
    private var table: RoutingTable?

    /// A class, so that listing the members copies no weak reference.
    private final class WeakController {
        weak var controller: AnyFetchedResultsController?

        init(_ controller: AnyFetchedResultsController) {
            self.controller = controller
        }
    }

    init(source: ResultsSource) {
        context = source.context
        // The context holds the router for as long as it lives, so the router never stops
        // observing it.
        _ = source.observe { [weak self] event in self?.contextDidChange(event) }
    }

    /// Starts handing the context's events to the controller.
    func add(_ controller: AnyFetchedResultsController) -> ObserverToken {
        let token = ObserverToken()
        members[token] = WeakController(controller)
        return token
    }

    func remove(_ token: ObserverToken) {
        members[token] = nil
    }

    private func contextDidChange(_ event: ContextEvent) {
        let list = listed ?? Array(members.values)
        listed = list
        let controllers = list.compactMap(\.controller)
        guard case .didMerge(let merge) = event, let context else {
            for controller in controllers { controller.contextDidChange(event) }
            return
        }
        let table = currentTable(for: controllers)
        let digest = MergeDigest(merge, source: ResultsSource(context: context))
        let routes = table.routes(of: digest)
        for (position, controller) in controllers.enumerated() {
            // An earlier controller's delegate may have changed this one since the rows were
            // routed (fetched again, or started delivering): it then hears the whole merge.
            if !table.indexes(controller, at: position) || controller.followsEveryMergedRow {
                controller.contextDidChange(event)
                continue
            }
            switch routes[position] {
            case .everyRow: controller.contextDidChange(event)
            case .rows(let ids): controller.contextDidChange(.didMerge(digest.merge(restrictedTo: ids)))
            case .none: controller.mergeSkipped(merge)
            }
        }
    }

    private func currentTable(for controllers: [AnyFetchedResultsController]) -> RoutingTable {
        if let table, table.isCurrent(for: controllers) { return table }
        let table = RoutingTable(controllers)
        self.table = table
        return table
    }
}
