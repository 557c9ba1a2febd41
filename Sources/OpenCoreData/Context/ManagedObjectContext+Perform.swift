import Dispatch

extension ManagedObjectContext {
    /// When the block of an async ``perform(schedule:_:)-6knd5`` (or of its throwing form,
    /// ``perform(schedule:_:)-5lbwo``) runs, with Core Data's names.
    public enum ScheduledTaskType: Sendable {
        /// Run at once if already on the context's queue, otherwise enqueue.
        case immediate
        /// Always enqueue behind the work already on the queue.
        case enqueued
    }

    /// Runs `block` asynchronously on the context's queue, then processes pending changes (so
    /// observers and fetched results controllers hear about the block's changes).
    ///
    /// ```swift
    /// background.perform {
    ///     Team(context: background).teamName = "Brazil"
    ///     try? background.save()
    /// }
    /// ```
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { self.runEvent(block) }
    }

    /// Runs `block` on the context's queue and waits for it. Re-entrant: called on the queue, it
    /// runs the block at once. Pending changes are processed at the end of the current event, not
    /// by this call.
    ///
    /// ```swift
    /// let count = try context.performAndWait { try context.count(for: Team.fetchRequest()) }
    /// ```
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync { try block() }
    }

    /// Runs `block` on the context's queue and returns its result, processing pending changes
    /// afterwards.
    ///
    /// ```swift
    /// let name = await context.perform { team.teamName }
    /// ```
    public func perform<T: Sendable>(
        schedule: ScheduledTaskType = .immediate, _ block: @escaping @Sendable () -> T
    ) async -> T {
        if schedule == .immediate, isOnQueue { return runEvent(block) }
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.runEvent(block)) }
        }
    }

    /// Runs a throwing `block` on the context's queue and returns its result or rethrows its
    /// error, processing pending changes afterwards.
    ///
    /// ```swift
    /// try await background.perform {
    ///     Team(context: background).teamName = "Brazil"
    ///     try background.save()
    /// }
    /// ```
    public func perform<T: Sendable>(
        schedule: ScheduledTaskType = .immediate, _ block: @escaping @Sendable () throws -> T
    ) async throws -> T {
        if schedule == .immediate, isOnQueue { return try runEvent(block) }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.runEvent(block) }) }
        }
    }

    /// One event: the block, then processPendingChanges, as Core Data wraps each perform block.
    private func runEvent<T>(_ block: () throws -> T) rethrows -> T {
        performDepth += 1
        defer {
            performDepth -= 1
            if performDepth == 0 { processPendingChanges() }
        }
        return try block()
    }

    /// Arranges for pending changes to be processed at the end of the current event: after the
    /// enclosing perform block, or, outside one, as the next item on the context's queue (the
    /// counterpart of Core Data's end of the run-loop turn).
    func scheduleProcessingPendingChanges() {
        guard !processingScheduled, performDepth == 0, !isProcessingPendingChanges else { return }
        processingScheduled = true
        queue.async { [weak self] in
            guard let self else { return }
            processingScheduled = false
            processPendingChanges()
        }
    }
}
