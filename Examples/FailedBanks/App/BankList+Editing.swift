import ExampleSupport
public import Foundation
import OpenCoreData

/// What the user can change from the list; each change is saved at once (or rolled back if the
/// save fails, so nothing half done is left for the next change), and the controller reports it
/// to ``BankList/table`` during the save.
extension BankList {
    /// Deletes the bank at a row, and its details with it (the relationship cascades).
    ///
    /// - Returns: The row as it was shown.
    /// - Throws: ``ToolError/failure(_:)`` when there is no such row; nothing is changed then.
    @discardableResult
    public func deleteBank(atRow row: Int) throws -> BankRow {
        let bank = try existingBank(atRow: row)
        let shown = BankRow(bank)
        try context.saveOrRollback { context.delete(bank) }
        return shown
    }

    /// Adds banks in one save.
    @discardableResult
    public func add(_ records: [BankRecord]) throws -> [FailedBankInfo] {
        try context.saveOrRollback { records.map { BankImport.insert($0, into: context) } }
    }

    /// Changes the day a bank closed, and moves its row.
    ///
    /// The list is sorted by `details.closeDate`, but the controller follows `FailedBankInfo`
    /// objects only: like Core Data's, it does not see a change made to the details alone, and
    /// the row would stay where it was. So the bank is touched too (its `details` relationship set
    /// again to the same object), which tells the controller that the bank's sort key may have
    /// changed: the way Core Data apps make a change to a related object visible.
    public func changeCloseDate(ofRow row: Int, to date: Date) throws {
        let bank = try existingBank(atRow: row)
        guard let details = bank.details else {
            throw ToolError.failure("\(bank.name) has no details to change")
        }
        try context.saveOrRollback {
            details.closeDate = date
            details.updatedDate = Date()
            bank.details = details
        }
    }

    /// The bank at a row counted from 0; the message counts from 1, as the screen does.
    private func existingBank(atRow row: Int) throws -> FailedBankInfo {
        guard let bank = controller.object(atRow: row) else {
            throw ToolError.failure("there is no bank at row \(row + 1); the list has \(count) banks")
        }
        return bank
    }
}
