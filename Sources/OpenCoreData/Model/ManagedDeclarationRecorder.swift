import Foundation
import Synchronization

/// Where `@Managed` wrappers leave their declarations (options and default value) while
/// ``EntityReflector`` reflects prototype objects of a class, and only then. A wrapper keeps just
/// the index of its record: an app's objects, made by the hundred thousand, no longer each carry
/// every property's options and default (about 320 bytes of a fetched object with six
/// properties), and making one no longer copies them.
enum ManagedDeclarationRecorder {
    struct Record: @unchecked Sendable {  // the default is a constant value of an attribute's type
        let declaration: _ManagedDeclaration
        let defaultStoredValue: Any?
    }

    /// The threads reflecting now, each with the records its prototypes made, in order.
    private static let sessions = Locked<[ObjectIdentifier: [Record]]>([:])
    /// How many threads reflect now: while none does, a wrapper records nothing and takes no
    /// lock. A thread that reflects counts itself before making a prototype, so it sees its own
    /// count; other threads may see a stale one, which only sends them to the table, where they
    /// find no session of theirs.
    private static let reflectingThreads = Atomic<Int>(0)

    /// Runs `body` (reflection on prototypes) with this thread's wrappers recording their
    /// declarations; nested calls share the outermost one's records.
    static func reflecting<T>(_ body: () throws(ModelError) -> T) throws(ModelError) -> T {
        let thread = ObjectIdentifier(Thread.current)
        let outermost = sessions.withLock { sessions -> Bool in
            guard sessions[thread] == nil else { return false }
            sessions[thread] = []
            return true
        }
        guard outermost else { return try body() }
        reflectingThreads.add(1, ordering: .relaxed)
        defer {
            reflectingThreads.subtract(1, ordering: .relaxed)
            sessions.withLock { $0[thread] = nil }
        }
        return try body()
    }

    /// Records a wrapper's declaration if this thread is reflecting, and returns its index
    /// (from 1); 0 otherwise, without calling `defaultValue`.
    static func record(_ declaration: _ManagedDeclaration, defaultValue: () -> Any?) -> Int32 {
        guard reflectingThreads.load(ordering: .relaxed) > 0 else { return 0 }
        let thread = ObjectIdentifier(Thread.current)
        let record = Record(declaration: declaration, defaultStoredValue: defaultValue())
        return sessions.withLock { sessions in
            guard sessions[thread] != nil else { return 0 }
            sessions[thread]?.append(record)
            return Int32(clamping: sessions[thread]?.count ?? 0)
        }
    }

    /// The record with this index on this thread, while it reflects.
    static func record(at index: Int32) -> Record? {
        guard index > 0 else { return nil }
        let thread = ObjectIdentifier(Thread.current)
        return sessions.withLock { sessions in
            guard let records = sessions[thread], Int(index) <= records.count else { return nil }
            return records[Int(index) - 1]
        }
    }
}
