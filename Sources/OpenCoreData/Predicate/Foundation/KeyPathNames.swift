/// Finds the property names a Swift key path of a `ManagedObject` subclass reads
/// (`\Player.team?.teamName` → `["team", "teamName"]`).
///
/// `@Managed` properties are computed, so their key paths do not print their names. Instead the
/// key path is applied to a probe: an instance whose `@Managed` getters record their names and
/// return stand-ins (a probe of the destination class for a to-one, so that chains continue).
enum KeyPathNames {
    /// The names read by `keyPath` from an object of `rootClass`; empty if it reads none.
    static func names(of keyPath: AnyKeyPath, rootClass: ManagedObject.Type) -> [String] {
        let recorder = Recorder()
        Recorder.$current.withValue(recorder) {
            _ = makeProbe(rootClass)[keyPath: keyPath]
        }
        return recorder.names
    }

    /// The keys of a Swift key path given as a `%K` argument: the `@Managed` properties read by
    /// a key path of a managed object class, or the properties a key path of another type names
    /// in its description (`\Post.author?.name` → `["author", "name"]`); nil when there are
    /// none or a part is not a property (a subscript, a computed property Swift cannot name).
    static func components(of keyPath: AnyKeyPath) -> [String]? {
        let rootType = type(of: keyPath).rootType
        if let rootClass = rootType as? ManagedObject.Type {
            let names = names(of: keyPath, rootClass: rootClass)
            return names.isEmpty ? nil : names
        }
        let prefix = "\\" + String(describing: rootType) + "."
        let description = String(describing: keyPath)
        guard description.hasPrefix(prefix) else { return nil }
        let names = description.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false).map { part in
            String(part.reversed().drop { $0 == "?" || $0 == "!" }.reversed())
        }
        let isName = { (name: String) in
            guard let first = name.unicodeScalars.first, PredicateLexer.isIdentifierStart(first) else { return false }
            return name.unicodeScalars.allSatisfy(PredicateLexer.isIdentifierContinue)
        }
        return names.allSatisfy(isName) ? names : nil
    }

    static func makeProbe(_ objectClass: ManagedObject.Type) -> ManagedObject {
        let probe = objectClass.init(entity: EntityReflector.placeholder, insertInto: nil)
        probe.state.isProbe = true
        return probe
    }

    /// What a probe's `@Managed` getter returns, after recording the property's name.
    static func probeRead<Value: ManagedPropertyValue>(_ type: Value.Type, storage: AnyKeyPath) -> Value {
        Recorder.current?.names.append(ManagedPropertyNames.name(for: storage))
        if case .toOne(let destination) = Value._managedKind {
            return Value._fromManaged(makeProbe(destination))
        }
        return Value._fromManaged(nil)
    }

    /// Collects names during one probe read, on one thread.
    final class Recorder: @unchecked Sendable {
        @TaskLocal static var current: Recorder?
        var names: [String] = []
    }
}
