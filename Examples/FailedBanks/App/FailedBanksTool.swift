public import ArgumentParser
public import ExampleSupport
import Foundation
import OpenCoreData

/// `failedbanks`: the app's one screen on a terminal. The first launch imports the banks; every
/// launch prints the first screen of the list; `--delete ROW` deletes a bank first and prints
/// the change the controller reported.
///
/// ```swift
/// FailedBanksTool.main()
/// ```
public struct FailedBanksTool: ParsableCommand {
    /// `failedbanks`, and what the first launch does.
    public static let configuration = CommandConfiguration(
        commandName: "failedbanks",
        abstract: "Failed banks, latest to close first, read 20 at a time by a fetched results controller.",
        discussion: "The first launch imports \(BankGenerator.defaultCount) made-up banks into the store; every launch shows the first screen."
    )

    /// `--store PATH` and `--sql`.
    @OptionGroup public var storage: StoreOptions<FailedBanksStore>

    /// The row to delete first, as the screen numbers it; nil to only show the list.
    @Option(name: .customLong("delete"),
            help: ArgumentHelp("Delete the bank at this row of the list (1 is the latest to close), with its details.",
                               valueName: "row"),
            transform: RowNumber.init(argument:))
    public var rowToDelete: RowNumber?

    /// A command line that only shows the list.
    public init() {}

    /// Opens the store and runs the command.
    public func run() throws {
        try Self.perform(deleting: rowToDelete, in: storage.openSession())
    }

    /// Imports the banks into an empty store, deletes the bank asked for, and shows the list.
    ///
    /// - Parameters:
    ///   - rowToDelete: The row to delete first, as the screen numbers it; nil to only show the list.
    ///   - session: The store, a context on it and the output.
    public static func perform(deleting rowToDelete: RowNumber?, in session: ToolSession) throws {
        let context = session.context
        let output = session.output
        try context.performAndWait {
            let imported = try BankImport.importIfEmpty(into: context, banks: BankGenerator.banks())
            if imported > 0 {
                output.print("Imported \(imported) banks into \(session.location.displayPath)")
            }
            let list = try BankList(context: context)
            if let row = rowToDelete {
                try delete(row: row, from: list, output: output)
            }
            show(list, output: output)
        }
    }

    private static func delete(row: RowNumber, from list: BankList, output: ToolOutput) throws {
        let deletedID = list.controller.object(atRow: row.index)?.objectID
        let deleted = try list.deleteBank(atRow: row.index)
        output.print("Deleted row \(row.number): \(deleted)")
        // The deleted bank cannot be read any more: its name is the one it was shown with.
        let label = { (id: ManagedObjectID) in
            id == deletedID ? deleted.name : (list.context.object(with: id) as? FailedBankInfo)?.name ?? "?"
        }
        for batch in list.table.batches {
            for line in TableStandIn.describe(batch, label: label) {
                output.print("  table: \(line)")
            }
        }
    }

    private static func show(_ list: BankList, output: ToolOutput) {
        output.print("Failed banks: \(list.count), latest to close first")
        for (number, row) in list.firstScreen().enumerated() {
            output.print("\(String(number + 1).leftPadded(to: 3)). \(row)")
        }
        if list.count > BankList.screenRows {
            output.print("     … \(list.count - BankList.screenRows) more")
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
