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
