public import Foundation
public import OpenCoreData

/// What a tool's command runs with: the opened store, where it is, where to print, and the clock.
///
/// ```swift
/// let list = try TodoList(context: session.context, table: printer, now: session.now)
/// session.output.print("Imported 300 banks into \(session.location.displayPath)")
/// ```
public struct ToolSession {
    /// The container, its store loaded.
    public let container: PersistentContainer
    /// A private-queue context on the store, for the command.
    public let context: ManagedObjectContext
    /// Where the store is, for messages.
    public let location: StoreLocation
    /// Where to print.
    public let output: ToolOutput
    /// The clock for creation dates.
    public let now: () -> Date

    /// A session on a loaded container, with a new context of its own.
    ///
    /// - Parameters:
    ///   - container: The container, its store loaded.
    ///   - location: Where the store is.
    ///   - output: Where to print.
    ///   - now: The clock for creation dates.
    public init(container: PersistentContainer, location: StoreLocation, output: ToolOutput, now: @escaping () -> Date) {
        self.container = container
        context = container.newBackgroundContext()
        self.location = location
        self.output = output
        self.now = now
    }
}
