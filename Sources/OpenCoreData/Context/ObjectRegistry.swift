/// A context's objects by ID, one object per ID (Core Data's uniquing), with the temporary IDs
/// that became permanent so that the old IDs still find their objects.
///
/// New objects, with temporary IDs, are kept by their serial number, an integer key cheaper to
/// hash and store than a whole ID. A save gives them permanent IDs (``renameSaved(_:mapping:)``);
/// they then wait in a list, findable by their new IDs, until the context stops holding them
/// (after the did-save notification): only those that something else still references join the
/// table of permanent IDs. A bulk import nobody keeps is never hashed under its permanent IDs.
struct ObjectRegistry {
    private var permanent: [ManagedObjectID: RegisteredObject] = [:]
    private var temporary: [Int64: RegisteredObject] = [:]
    /// Entries of `temporary` that hold an object: when it drops to 0, the table is emptied at
    /// once instead of entry by entry.
    private var liveTemporaryEntries = 0
    /// Objects a save renamed, waiting for ``releaseSaved(_:)``.
    private var renamed: [ManagedObject] = []
    /// `renamed` by ID, built when first looked into.
    private var renamedByID: [ManagedObjectID: ManagedObject]?
    /// Renamed objects unregistered before they settled.
    private var unregisteredRenamed: Set<ObjectIdentifier> = []
    /// Each renaming's mapping, as it came, newest last, with its lookup table once one was needed.
    private var aliases: [(mapping: IDMapping, lookup: [ManagedObjectID: ManagedObjectID]?)] = []
    private var countAtLastSweep = 0

    var isEmpty: Bool { permanent.isEmpty && liveTemporaryEntries == 0 && renamed.isEmpty }

    /// Whether some object is registered under a temporary ID.
    var holdsTemporaryObjects: Bool { liveTemporaryEntries > 0 }

    /// The registered object with this ID, if it is still alive.
    mutating func object(for id: ManagedObjectID) -> ManagedObject? {
        if id.isTemporaryID {
            guard let object = temporary[id.key]?.object, object.identity == id else { return nil }
            return object
        }
        if let object = permanent[id]?.object { return object }
        guard !renamed.isEmpty else { return nil }
        if renamedByID == nil {
            renamedByID = Dictionary(renamed.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        }
        guard let object = renamedByID?[id], !unregisteredRenamed.contains(ObjectIdentifier(object)) else { return nil }
        return object
    }

    /// The permanent ID a temporary one became, if it did; the ID itself otherwise.
    mutating func resolved(_ id: ManagedObjectID) -> ManagedObjectID {
        guard id.isTemporaryID else { return id }
        for index in aliases.indices.reversed() {
            if aliases[index].lookup == nil { aliases[index].lookup = aliases[index].mapping.dictionary() }
            if let alias = aliases[index].lookup?[id] { return alias }
        }
        return id
    }

    /// Room for at least `count` objects with permanent IDs, made before a fetch of `count` rows
    /// registers their objects one by one: grown step by step, the table rehashed every entry at
    /// each doubling. Not `count` more: a fetch of rows already registered would double the table.
    mutating func reserveCapacity(_ count: Int) {
        permanent.reserveCapacity(count)
    }

    mutating func register(_ object: ManagedObject) {
        let id = object.identity
        if id.isTemporaryID {
            if temporary.updateValue(RegisteredObject(object), forKey: id.key)?.object == nil { liveTemporaryEntries += 1 }
        } else {
            permanent[id] = RegisteredObject(object)
        }
        sweepIfGrown()
    }

    mutating func unregister(_ object: ManagedObject) {
        let id = object.identity
        if id.isTemporaryID {
            guard let index = temporary.index(forKey: id.key), temporary.values[index].object === object else { return }
            temporary.remove(at: index)
            liveTemporaryEntries -= 1
        } else if let index = permanent.index(forKey: id), permanent.values[index].object === object {
            permanent.remove(at: index)
        } else if !renamed.isEmpty {
            unregisteredRenamed.insert(ObjectIdentifier(object))
            renamedByID?[id] = nil
        }
    }

    /// Gives objects registered under the mapping's temporary IDs their permanent IDs, moving
    /// them to the permanent table. Returns whether any object was renamed.
    @discardableResult
    mutating func rename(_ mapping: IDMapping) -> Bool {
        var renamedAny = false
        permanent.reserveCapacity(permanent.count + mapping.count)
        for (old, new) in mapping {
            guard old.isTemporaryID, let index = temporary.index(forKey: old.key),
                  let object = temporary.values[index].object, object.identity == old else { continue }
            let entry = temporary.values[index]
            // Emptied rather than removed: removing keys one by one shifts their neighbours.
            temporary.values[index] = RegisteredObject()
            liveTemporaryEntries -= 1
            object.identity = new
            permanent[new] = entry
            renamedAny = true
        }
        if liveTemporaryEntries == 0 { temporary = [:] }
        renamedByID = nil
        if renamedAny { aliases.append((mapping, nil)) }
        return renamedAny
    }

    /// Gives a save's new objects their permanent IDs: `objects` are the objects the save wrote,
    /// in the mapping's order, so each takes its ID in step, without lookups. They wait in a list
    /// for ``releaseSaved(_:)``, which registers under their new IDs only those still referenced.
    mutating func renameSaved(_ objects: [ManagedObject], mapping: IDMapping) {
        var pairs = mapping.makeIterator()
        var next = pairs.next()
        var moved = 0
        renamed.reserveCapacity(renamed.count + mapping.count)
        for object in objects {
            // Objects given permanent IDs before the save are not in the mapping.
            guard let pair = next, pair.old == object.identity else { continue }
            next = pairs.next()
            object.identity = pair.new
            renamed.append(object)
            moved += 1
        }
        guard moved > 0 else { return }
        if moved == liveTemporaryEntries {
            // Every new object was saved: the table goes at once.
            temporary = [:]
            liveTemporaryEntries = 0
        } else {
            for (old, _) in mapping {
                guard let index = temporary.index(forKey: old.key), temporary.values[index].object != nil else { continue }
                temporary.values[index] = RegisteredObject()
                liveTemporaryEntries -= 1
            }
        }
        renamedByID = nil
        aliases.append((mapping, nil))
    }

    /// The context no longer holds these objects, inserted and now saved (the list is emptied):
    /// each that nothing else references goes, the others stay registered, weakly.
    mutating func releaseSaved(_ objects: inout [ManagedObject]) {
        while !objects.isEmpty {
            // The list's reference goes with this statement, before the registry's is looked at.
            let id = objects.removeLast().identity
            // Objects renamed by the save are settled below, once the list holds none of them.
            guard id.isTemporaryID, let index = temporary.index(forKey: id.key) else { continue }
            if temporary.values[index].releaseHeldObject() { liveTemporaryEntries -= 1 }
        }
        settleRenamed()
    }

    /// The context no longer holds the objects a save renamed: each that nothing else references
    /// goes, the others stay registered, weakly, under their permanent IDs.
    private mutating func settleRenamed() {
        guard !renamed.isEmpty else { return }
        renamedByID = nil
        var objects = renamed
        renamed = []
        let unregistered = unregisteredRenamed
        unregisteredRenamed = []
        while !objects.isEmpty {
            var object: ManagedObject? = objects.removeLast()
            // The list held the last reference the context had: unique means nobody else has one.
            if isKnownUniquelyReferenced(&object) { continue }
            guard let object, !unregistered.contains(ObjectIdentifier(object)) else { continue }
            permanent[object.identity] = RegisteredObject(object)
        }
    }

    /// Every registered object that is still alive.
    var objects: [ManagedObject] {
        permanent.values.compactMap(\.object) + temporary.values.compactMap(\.object)
            + renamed.filter { !unregisteredRenamed.contains(ObjectIdentifier($0)) }
    }

    /// Forgets everything, returning the objects that were registered.
    mutating func removeAll() -> [ManagedObject] {
        let all = objects
        self = ObjectRegistry()
        return all
    }

    /// Drops entries of objects that no longer exist, when the tables have doubled since the
    /// last sweep, so that the sweeps cost O(1) per registration.
    private mutating func sweepIfGrown() {
        let count = permanent.count + temporary.count
        guard count > 1024, count > 2 * countAtLastSweep else { return }
        // Scanned first and rebuilt only if something is gone (or held after the context let it
        // go): while a context inserts many objects, all of them are alive, and rebuilding cost
        // more than registering them.
        if permanent.values.contains(where: { $0.object == nil || $0.holdsTooLong }) {
            permanent = permanent.compactMapValues { $0.object.map(RegisteredObject.init) }
        }
        if temporary.count > liveTemporaryEntries || temporary.values.contains(where: \.holdsTooLong) {
            temporary = temporary.compactMapValues { $0.object.map(RegisteredObject.init) }
            liveTemporaryEntries = temporary.count
        }
        // A mapping goes once none of its objects is registered any more (renamed objects
        // waiting to settle count as registered).
        if renamed.isEmpty {
            aliases.removeAll { alias in !alias.mapping.contains { permanent[$0.new]?.object != nil } }
        }
        countAtLastSweep = permanent.count + temporary.count
    }
}
