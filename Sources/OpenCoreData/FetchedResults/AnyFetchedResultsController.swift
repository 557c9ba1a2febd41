public import Foundation

/// What every fetched results controller is, whatever its result type: the class delegates
/// receive. Create a ``FetchedResultsController`` instead.
///
/// Use a controller on its context's queue, as the context. Its delegate is called there,
/// synchronously, inside the `processPendingChanges()`, `save()` or merge that caused a change.
open class AnyFetchedResultsController: @unchecked Sendable {
    /// The context the controller fetches in and follows.
    public let managedObjectContext: ManagedObjectContext
    /// The key path section names come from; nil for one section.
    public let sectionNameKeyPath: String?
    /// The name of the on-disk cache of the sections; nil for none.
    public let cacheName: String?
    /// What the controller reads of its context beyond the public API.
    let source: ResultsSource

    /// Receives the controller's changes; held weakly. Setting it turns change tracking on (or
    /// off, for nil) from now on: changes made while it was nil are not replayed, so call
    /// ``performFetch()`` after setting it back. Which callbacks it receives depends on the
    /// protocol it adopts (see ``FetchedResultsControllerDelegate``).
    public weak var delegate: (any FetchedResultsControllerDelegate)? {
        didSet { delegateDidChange() }
    }

    var engine: FetchedResultsEngine? {
        didSet { engineGeneration &+= 1 }
    }
    /// Counts assignments to ``engine``, so that a router can tell its engine is the one it
    /// indexed without holding a reference to it.
    private(set) var engineGeneration = 0
    var objects: ResultObjects?
    /// Results of a dictionary request, which are fetched but not followed.
    var dictionaryResults: [Any]?
    var delegateForm = DelegateForm.none
    var observerToken: ObserverToken?
    /// The request's ``FetchRequest/predicateRevision`` when the engine last followed its
    /// predicate.
    var followedPredicateRevision: Int?
    /// Events heard while a batch was being delivered, processed once it is delivered.
    var deferredEvents: [ContextEvent] = []
    var isDeliveringChanges = false
    /// Set when a change batch failed, until a fresh fetch catches up (see +Recovery).
    var staleness: Staleness?
    /// The store generation the rows match, for the section cache (see +Cache).
    var generationTrail = StoreGenerationTrail(generation: nil)
    var changeSubscribers: [UUID: AsyncStream<FetchedResultsChanges>.Continuation] = [:]
    var snapshotSubscribers: [UUID: AsyncStream<FetchedResultsSnapshot>.Continuation] = [:]
    var failureSubscribers: [UUID: AsyncStream<FetchedResultsError>.Continuation] = [:]
    let subscriberLock = NSLock()

    init(context: ManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?) {
        managedObjectContext = context
        source = ResultsSource(context: context)
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    deinit {
        if let observerToken {
            let source = source
            source.context.perform { source.mergeRouter.remove(observerToken) }
        }
        subscriberLock.withLock {
            for continuation in changeSubscribers.values { continuation.finish() }
            for continuation in snapshotSubscribers.values { continuation.finish() }
            for continuation in failureSubscribers.values { continuation.finish() }
        }
    }

    /// The request, without its result type; overridden by ``FetchedResultsController``.
    func currentRequest() -> AnyFetchRequest {
        preconditionFailure("AnyFetchedResultsController is abstract; create a FetchedResultsController")
    }

    /// The request's ``FetchRequest/predicateRevision``, read without copying
    /// ``currentRequest()``: a router asks every controller at every merge.
    func requestPredicateRevision() -> Int {
        preconditionFailure("AnyFetchedResultsController is abstract; create a FetchedResultsController")
    }

    // MARK: Fetching

    /// Fetches the results and their sections; the controller then follows changes if it has a
    /// delegate (or an async sequence is read).
    ///
    /// With a snapshot delegate, the delegate receives the contents before this returns. With a
    /// ``cacheName`` whose cache is valid (written after the last save to the store, for the same
    /// request and model), nothing is fetched.
    ///
    /// - Throws: ``FetchedResultsError/missingSortDescriptors`` without sort descriptors;
    ///   ``FetchedResultsError/outOfOrderSection`` when section names do not follow the sort
    ///   order; ``FetchedResultsError/unsupportedResultType`` for dictionary results with change
    ///   tracking, or count results; ``FetchedResultsError/unsupportedSortKey`` for a sort by a
    ///   to-many's `@count`; ``FetchedResultsError/fetchDuringChangeDelivery`` when called
    ///   from a delegate callback; and the errors of ``ManagedObjectContext/fetch(_:)``. After an
    ///   error the controller has no results.
    public func performFetch() throws {
        source.assertOnQueue()
        guard !isDeliveringChanges else {
            throw FetchedResultsError(FetchedResultsError.fetchDuringChangeDelivery,
                                      "performFetch() was called while the controller was reporting changes; call it after controllerDidChangeContent returns")
        }
        engine = nil
        objects = nil
        dictionaryResults = nil
        staleness = nil
        let request = currentRequest()
        do {
            if request.resultType() == .dictionaryResultType {
                try fetchDictionaries(request)
                return
            }
            let configuration = try FetchedResultsConfiguration(request: request, sectionNameKeyPath: sectionNameKeyPath,
                                                                source: source, keepsWindow: keepsFetchWindow)
            let coding = RowKeyCoding(entities: configuration.plan.entities, storeIdentifier: try source.storeIdentifier())
            // A cache holds the window's rows only, not the head a live window follows changes by.
            let restored = try cacheName.flatMap { name in
                try configuration.window == nil ? restoreFromCache(named: name, configuration: configuration, coding: coding) : nil
            }
            let fetched = try restored.map { InitialFetch.Fetched(index: $0) } ?? fetchIndex(configuration, coding: coding)
            engine = try makeEngine(configuration, coding: coding, fetched: fetched)
            if restored == nil { writeCacheIfTracking() }
            objects = ResultObjects(source: source, coding: coding, configuration: configuration)
        } catch {
            engine = nil
            objects = nil
            throw error
        }
        updateTracking()
        deliverFetchedContents()
    }

    /// How many times a fetch is made again because commits landed while it ran.
    private static let fetchAttempts = 3

    /// The results' rows, fetched as the context has seen the store: the context first merges
    /// every commit it has not, and a fetch that saw a commit landing meanwhile is made again, so
    /// that later comparisons (which read rows with unmerged commits taken back out) agree with
    /// the order fetched. After the last attempt the rows stand as fetched, as they do for a
    /// fetch while the context tells of an event (`mergingFirst` false, or a delegate's call).
    func fetchIndex(_ configuration: FetchedResultsConfiguration, coding: RowKeyCoding, mergingFirst: Bool = true) throws -> InitialFetch.Fetched {
        var attempt = 0
        while true {
            attempt += 1
            let merged = mergingFirst && source.mergeEveryCommitSoFar()
            let generation = generationBeforeFetching()
            let fetched = try InitialFetch(configuration: configuration, source: source, coding: coding,
                                           indexTitle: { [unowned self] in resolvedIndexTitle(forSectionName: $0) }).run()
            guard merged, attempt < Self.fetchAttempts, !source.hasMergedEveryCommit() else {
                generationTrail = StoreGenerationTrail(generation: generation)
                return fetched
            }
        }
    }

    func makeEngine(_ configuration: FetchedResultsConfiguration, coding: RowKeyCoding, fetched: InitialFetch.Fetched) throws -> FetchedResultsEngine {
        let index = fetched.index
        let engine = FetchedResultsEngine(configuration: configuration, source: source, coding: coding,
                                          index: rowChunkLength == RowList.standardMaximumChunkLength ? index : index.rechunked(toLength: rowChunkLength),
                                          window: fetched.head)
        // A window's rows are placed by the keys they have now: a later change must find them.
        try engine.readWindowKeys()
        return engine
    }

    /// Dictionary results are fetched as Core Data fetches them, and not followed.
    private func fetchDictionaries(_ request: AnyFetchRequest) throws {
        guard delegateForm == .none, !hasSubscribers else {
            throw FetchedResultsError(FetchedResultsError.unsupportedResultType,
                                      "a fetched results controller does not support both change tracking and fetch requests with dictionary results; remove the delegate, or fetch objects")
        }
        guard request.sortDescriptors() != nil else {
            throw FetchedResultsError(FetchedResultsError.missingSortDescriptors,
                                      "a fetched results controller needs a fetch request with sort descriptors; set sortDescriptors, to [] if the order does not matter")
        }
        let results = try request.fetchAll(managedObjectContext)
        var sections: [ResultIndex.Section] = []
        for (offset, result) in results.enumerated() {
            let value = sectionNameKeyPath.flatMap { (result as? NSDictionary)?.value(forKey: $0) }
            let name = sectionNameKeyPath == nil ? "" : value.map { "\($0)" } ?? ""
            if sections.last?.name == name {
                sections[sections.count - 1].rows.insert(Int64(offset), at: sections[sections.count - 1].rows.count)
            } else {
                guard !sections.contains(where: { $0.name == name }) else { throw FetchedResultsError.outOfOrder(index: offset, name: name) }
                sections.append(.init(name: name, indexTitle: resolvedIndexTitle(forSectionName: name), rows: RowList([Int64(offset)])))
            }
        }
        if sectionNameKeyPath == nil, sections.isEmpty { sections = [.init(name: "", indexTitle: nil, rows: RowList())] }
        dictionaryIndex = ResultIndex(sections: sections)
        dictionaryResults = results
    }

    var dictionaryIndex: ResultIndex?

    /// Whether the request's `fetchLimit` and `fetchOffset` hold after every change batch, as they
    /// do at the fetch: true by default. Read at ``performFetch()``.
    ///
    /// Core Data applies them at the fetch only: inserts grow a "top 50" list to 51, 52, and
    /// rows that sort before the offset show. Here a row pushed out of the window is deleted and
    /// the row that takes its place inserted, whether or not it was ever loaded; set this to
    /// false before fetching for Core Data's behaviour.
    ///
    /// ```swift
    /// let request = Team.fetchRequest()
    /// request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false)]
    /// request.fetchLimit = 10
    /// let topTen = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
    ///                                       sectionNameKeyPath: nil, cacheName: nil)
    /// try topTen.performFetch()   // always the ten teams with the most wins
    /// ```
    ///
    /// A live window keeps the result's rows up to the window's end, and as many again after it,
    /// with their sort keys: the store is read again only when rows leaving the window have used
    /// those up. A window is not restored from a section cache (``cacheName``): it is fetched.
    public var keepsFetchWindow = true

    /// The longest run of rows the controller keeps in one piece of its index (set before
    /// `performFetch()`). Only tests change it: short chunks make a few dozen rows cross as many
    /// chunk boundaries as a long result does.
    package var rowChunkLength = RowList.standardMaximumChunkLength

    /// The current index, whichever kind of results the controller holds.
    var currentIndex: ResultIndex? {
        dictionaryResults != nil ? dictionaryIndex : engine?.index
    }

    func result(at position: Int, in index: ResultIndex) -> Any {
        if let dictionaryResults { return dictionaryResults[Int(index.rowKey(at: position))] }
        guard let objects else { preconditionFailure("cannot access fetched objects before -performFetch:") }
        return objects.result(at: position, in: index)
    }

    // MARK: Sections

    /// The sections, in order; nil before ``performFetch()``. Each read returns new values that
    /// later changes do not alter.
    public var sections: [any FetchedResultsSectionInfo]? {
        source.assertOnQueue()
        guard let index = currentIndex else { return nil }
        return index.sections.indices.map { sectionInfo(at: $0, in: index) }
    }

    func sectionInfo(at section: Int, in index: ResultIndex) -> FetchedSection {
        let start = index.position(section: section, row: 0)
        let count = index.sections[section].rows.count
        return FetchedSection(name: index.sections[section].name, indexTitle: index.sections[section].indexTitle,
                              numberOfObjects: count) { [self] in
            (start..<(start + count)).map { result(at: $0, in: index) }
        }
    }

    /// The index titles of the sections, in order, without nil titles and without a title equal
    /// to the one before it; empty for an unsectioned controller.
    open var sectionIndexTitles: [String] {
        guard sectionNameKeyPath != nil, let index = currentIndex else { return [] }
        var titles: [String] = []
        for title in index.sections.compactMap(\.indexTitle) where titles.last != title {
            titles.append(title)
        }
        return titles
    }

    /// The section that contributed the index title at `sectionIndex` of ``sectionIndexTitles``.
    ///
    /// Stops the program, as Core Data raises, when `sectionIndex` is out of range or the title
    /// there is not `title`.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let titles = sectionIndexTitles
        precondition(titles.indices.contains(sectionIndex), "invalid Section Index offset\(sectionIndex)")
        precondition(titles[sectionIndex] == title, "Index title at \(sectionIndex) is not equal to '\(title)'")
        let sections = currentIndex?.sections ?? []
        var position = -1
        for (number, section) in sections.enumerated() {
            guard let sectionTitle = section.indexTitle else { continue }
            if position < 0 || titles[position] != sectionTitle { position += 1 }
            if position == sectionIndex { return number }
        }
        return 0
    }

    /// The index title for a section name: the name's first character, uppercased, or nil for
    /// an empty name. Override it to title sections differently; a delegate that implements
    /// ``FetchedResultsControllerDelegate/controller(_:sectionIndexTitleForSectionName:)`` wins.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        SectionNaming.defaultIndexTitle(for: sectionName)
    }

    func resolvedIndexTitle(forSectionName name: String) -> String? {
        guard sectionNameKeyPath != nil else { return nil }
        return delegate?.controller(self, sectionIndexTitleForSectionName: name) ?? sectionIndexTitle(forSectionName: name)
    }

    // MARK: Objects

    func anyObject(at indexPath: IndexPath) -> Any {
        source.assertOnQueue()
        guard let index = currentIndex else { preconditionFailure("cannot access fetched objects before -performFetch:") }
        precondition(indexPath.count == 2, "an index path for a fetched results controller has a section and a row")
        precondition(index.sections.indices.contains(indexPath.section), "no section at index \(indexPath.section)")
        precondition(indexPath.row >= 0 && indexPath.row < index.sections[indexPath.section].rows.count,
                     "no object at index \(indexPath.row) in section at index \(indexPath.section)")
        return result(at: index.position(section: indexPath.section, row: indexPath.row), in: index)
    }

    func anyIndexPath(forObjectID id: ManagedObjectID, object: ManagedObject?) -> IndexPath? {
        source.assertOnQueue()
        guard let engine, let position = engine.position(of: id, object: object) else { return nil }
        let path = engine.index.path(ofPosition: position)
        return IndexPath(row: path.row, section: path.section)
    }

    func dictionaryIndexPath(of result: Any) -> IndexPath? {
        guard let dictionary = result as? NSDictionary, let index = dictionaryIndex,
              let offset = dictionaryResults?.firstIndex(where: { ($0 as? NSDictionary) == dictionary }) else { return nil }
        let path = index.path(ofPosition: offset)
        return IndexPath(row: path.row, section: path.section)
    }

    // MARK: Cache

    /// Removes the on-disk cache with this name, or every cache for nil. Live controllers keep
    /// their results.
    ///
    /// Only cache files are deleted: a cache's `sectionInfo` file (and temporary files of writes
    /// that stopped midway), then its directory if that leaves it empty; with nil, those of every
    /// cache in ``cacheDirectory``, then the directory if that leaves it empty. Other files there,
    /// and symbolic links (which are never followed), are left alone.
    public class func deleteCache(withName name: String?) {
        SectionCaches.writer().remove(cacheName: name)
    }

    /// The directory of the on-disk section caches: by default
    /// `$XDG_CACHE_HOME/<process name>/.CoreDataCaches/SectionInfoCaches` (`~/.cache` without
    /// `XDG_CACHE_HOME`), as Core Data keeps them in the app's caches directory. Set it once, before
    /// the first controller with a cache name fetches; nil restores the default.
    public static var cacheDirectory: URL? {
        get { SectionCacheLocation.overrideRoot }
        set { SectionCacheLocation.overrideRoot = newValue }
    }
}

/// Which callbacks a delegate receives, decided when it is set (Core Data's precedence).
enum DelegateForm {
    case none
    case classic
    case snapshot
    case difference
}
