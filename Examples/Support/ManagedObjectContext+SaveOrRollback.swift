public import OpenCoreData

extension ManagedObjectContext {
    /// Makes changes and saves them, or, if either fails, puts the context back to what the
    /// store holds, so a refused change leaves nothing half done for the next one.
    ///
    /// Call it on the context's queue.
    ///
    /// ```swift
    /// let car = try context.saveOrRollback {
    ///     let car = Car(context: context)
    ///     car.dateCreated = Date()
    ///     return car
    /// }
    /// ```
    ///
    /// - Parameter changes: The changes; what it returns is returned.
    /// - Returns: What `changes` returned, once saved.
    /// - Throws: The error of `changes` or of the save.
    public func saveOrRollback<T>(_ changes: () throws -> T) throws -> T {
        do {
            let result = try changes()
            try save()
            return result
        } catch {
            rollback()
            throw error
        }
    }
}
