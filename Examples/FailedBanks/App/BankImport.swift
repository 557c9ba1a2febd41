public import OpenCoreData

/// The first-launch import: the seed preloads its banks from a file into an empty store.
public enum BankImport {
    /// Inserts the banks in one save when the store has no bank yet.
    ///
    /// - Returns: How many banks were imported: 0 when the store already had banks.
    @discardableResult
    public static func importIfEmpty(into context: ManagedObjectContext, banks: @autoclosure () -> [BankRecord]) throws -> Int {
        guard try context.count(for: FailedBankInfo.fetchRequest()) == 0 else { return 0 }
        let records = banks()
        for record in records {
            insert(record, into: context)
        }
        try context.save()
        return records.count
    }

    /// A new bank and its details, not saved.
    @discardableResult
    public static func insert(_ record: BankRecord, into context: ManagedObjectContext) -> FailedBankInfo {
        let info = FailedBankInfo(context: context)
        info.name = record.name
        info.city = record.city
        info.state = record.state
        let details = FailedBankDetails(context: context)
        details.closeDate = record.closeDate
        details.updatedDate = record.updatedDate
        details.zip = record.zip
        info.details = details
        return info
    }
}
