import Foundation

/// The check that objects are read, written and faulted in only on their context's queue (see
/// ``ConcurrencyDebugging``): the most common Core Data threading bug, which otherwise corrupts the
/// object graph silently.
extension ManagedObjectContext {
    /// Stops the program when `object`, registered in this context, is used off the context's
    /// queue, naming the object, the queue it was used on and the fix.
    func checkObjectAccess(_ object: ManagedObject) {
        guard !isOnQueue else { return }
        preconditionFailure("""
            Concurrency violation: \(object.entity.entityName) \(object.objectID) was used on \(Self.currentQueueDescription()), \
            but it belongs to \(self), whose objects may be used only on \(queueDescription). \
            Read and change it inside \(concurrencyType == .mainQueueConcurrencyType ? "the main queue or " : "")\
            context.perform { } or context.performAndWait { }; to use it on another queue, pass its objectID and \
            fetch it there with object(with:) in that queue's own context. \
            (This check is on in debug builds; \(ConcurrencyDebugging.environmentVariable)=0 turns it off.)
            """)
    }

    /// The queue the context's objects belong to, for messages.
    var queueDescription: String {
        concurrencyType == .mainQueueConcurrencyType ? "the main queue" : "its private queue ('\(queue.label)')"
    }

    /// Where the caller runs, for messages: another context's queue, the main thread, or a thread.
    static func currentQueueDescription() -> String {
        if let token = DispatchQueue.getSpecific(key: QueueToken.key), token !== QueueToken.main {
            return "the private queue of \(token.ownerDescription)"
        }
        if Thread.isMainThread { return "the main thread" }
        let name = Thread.current.name.flatMap { $0.isEmpty ? nil : $0 }
        return name.map { "thread '\($0)'" } ?? "a thread that is not the queue of any context"
    }
}
