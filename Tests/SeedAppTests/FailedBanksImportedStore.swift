import FailedBanksApp
import OpenCoreData
import SampleAppSupport

/// A Failed Banks store as the app leaves it after its first launch: the generated banks imported
/// in one save, in a scratch directory, with the SQL it runs traced.
struct FailedBanksImportedStore {
    let scratch = SampleAppScratch()
    let trace = SQLTrace()
    let container: PersistentContainer
    /// The banks imported, in import order.
    let records = BankGenerator.banks()

    /// - Parameter inMemory: Uses the in-memory store instead of an SQLite file.
    init(inMemory: Bool = false) throws {
        let location: StoreLocation = inMemory ? .inMemory : .file(scratch.file("FailedBanks.sqlite"))
        container = try FailedBanksStore.open(location, trace: trace)
        let context = container.newBackgroundContext()
        let records = records
        try context.performAndWait {
            _ = try BankImport.importIfEmpty(into: context, banks: records)
        }
    }

    /// A new context, as a relaunched app's list would use.
    func newContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }
}

extension ManagedObjectContext {
    /// How many objects of a class are registered here and loaded (not faults).
    func loadedCount<T: ManagedObject>(of type: T.Type) -> Int {
        registeredObjects.filter { $0 is T && !$0.isFault }.count
    }
}
