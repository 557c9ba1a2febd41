import ExampleSupport
import FailedBanksApp
import OpenCoreData

/// A Failed Banks store as the app leaves it after its first launch: the generated banks imported
/// in one save, in a scratch directory, with the SQL it runs traced.
struct FailedBanksImportedStore {
    let scratch: ScratchStore
    /// The banks imported, in import order.
    let records = BankGenerator.banks()

    /// - Parameter inMemory: Uses the in-memory store instead of an SQLite file.
    init(inMemory: Bool = false) throws {
        scratch = try ScratchStore(FailedBanksStore.self, inMemory: inMemory)
        let context = scratch.container.newBackgroundContext()
        let records = records
        try context.performAndWait {
            _ = try BankImport.importIfEmpty(into: context, banks: records)
        }
    }

    /// The SQL the store runs.
    var trace: SQLTrace { scratch.trace }

    /// A new context, as a relaunched app's list would use.
    func newContext() -> ManagedObjectContext {
        scratch.container.newBackgroundContext()
    }
}

extension ManagedObjectContext {
    /// How many objects of a class are registered here and loaded (not faults).
    func loadedCount<T: ManagedObject>(of type: T.Type) -> Int {
        registeredObjects.filter { $0 is T && !$0.isFault }.count
    }

    /// How many objects of a class are registered here, faults included.
    func registeredCount<T: ManagedObject>(of type: T.Type) -> Int {
        registeredObjects.filter { $0 is T }.count
    }
}
