/// The results of ``ManagedObjectContext/fetchLazily(_:)``: a random-access collection that
/// holds only object IDs, creates each object when it is read, and loads values a batch at a
/// time. Use it on its context's queue.
///
/// ```swift
/// let banks = try context.fetchLazily(request)
/// for index in visibleRows { print(banks[index].name) }
/// ```
public struct LazyFetchResults<Element: ManagedObject>: RandomAccessCollection {
    let loader: BatchFaultLoader
    let context: ManagedObjectContext

    public var startIndex: Int { 0 }
    public var endIndex: Int { loader.ids.count }

    /// The object at `position`: a fault until read, then loaded with its batch.
    public subscript(position: Int) -> Element {
        context.assertOnQueue()
        guard let object = loader.object(at: position, in: context) as? Element else {
            preconditionFailure("the object at \(position) is not a \(Element.self); its entity's class changed after the fetch")
        }
        return object
    }

    /// The results' object IDs, without creating any object.
    public var objectIDs: [ManagedObjectID] { loader.ids }
}
