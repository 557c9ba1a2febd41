/// A context's registry entry for one object: a strong reference while the context holds the
/// object anyway (inserted and not saved yet), a weak one otherwise, as the registry must not
/// keep objects alive.
///
/// A weak reference gives its object a side table, and every later retain and release of the
/// object goes through it, more slowly; for 100,000 new objects that was a sixth of inserting and
/// saving them. Holding new objects strongly defers the side table to their save.
struct RegisteredObject {
    private var held: ManagedObject?
    private weak var weakObject: ManagedObject?

    /// An entry for `object`, strong if the context holds it (see `holds(_:)`).
    init(_ object: ManagedObject) {
        if Self.holds(object) { held = object } else { weakObject = object }
    }

    /// An entry whose object is gone.
    init() {}

    var object: ManagedObject? { held ?? weakObject }

    /// Whether the entry keeps its object alive although the context no longer holds it.
    var holdsTooLong: Bool {
        guard let held else { return false }
        return !Self.holds(held)
    }

    /// The context holds inserted objects in its inserted set until they are saved or dropped.
    private static func holds(_ object: ManagedObject) -> Bool { object.state.isInserted }

    /// For an entry that keeps its object alive although the context no longer holds it: if
    /// nothing else references the object, the entry lets it go and becomes empty; otherwise it
    /// keeps the object weakly. A weak reference gives its object a side table, which slows every
    /// later retain and release of it, so objects nobody kept end without one.
    /// Returns whether the object was let go.
    @discardableResult
    mutating func releaseHeldObject() -> Bool {
        guard held != nil else { return false }
        let unique = isKnownUniquelyReferenced(&held)
        if !unique { weakObject = held }
        held = nil
        return unique
    }
}
