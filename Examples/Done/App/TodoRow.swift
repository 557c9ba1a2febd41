public import OpenCoreData

/// One row of the to-do list as a value, so it can leave the context's queue.
public struct TodoRow: Sendable, Equatable, CustomStringConvertible {
    /// The number `list` shows beside the item: its row in the controller, from 1.
    public let number: Int
    /// The item.
    public let objectID: ManagedObjectID
    /// The item's text.
    public let name: String
    /// Whether the item is done.
    public let done: Bool

    /// The row of an item at a 0-based row index. Read it on the item's context queue.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - index: Its row in the controller's section, from 0.
    public init(_ item: Item, index: Int) {
        number = index + 1
        objectID = item.objectID
        name = item.name
        done = item.done
    }

    /// `2 [✓] milk`: the number, a checkmark for a done item, the text.
    public var description: String { "\(number) [\(done ? "✓" : " ")] \(name)" }
}
