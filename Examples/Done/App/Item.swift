public import Foundation
public import OpenCoreData

/// A to-do item: the Done app's one entity.
///
/// Every attribute is required; `done` starts false. The list sets `createdAt` when it adds an
/// item, and shows items in that order.
///
/// ```swift
/// let item = Item(context: context)
/// item.name = "milk"
/// item.createdAt = Date()
/// item.done  // false
/// ```
public final class Item: ManagedObject {
    /// What there is to do.
    @Managed public var name: String
    /// When the item was added; the list's order.
    @Managed public var createdAt: Date
    /// Whether it is done.
    @Managed public var done: Bool = false
}
