import Foundation
import OpenCoreData
import SampleAppSupport

/// `failedbanks`: the app's one screen on a terminal. The first launch imports the banks; every
/// launch prints the first screen of the list; `--delete ROW` deletes a bank first and prints
/// the change the controller reported.
public enum FailedBanksCommand {
    /// The help text, also printed after a bad command line.
    public static let usage = """
        usage: failedbanks [--store PATH] [--sql] [--delete ROW]
          --store PATH   the SQLite store (default: $XDG_DATA_HOME or ~/.local/share, FailedBanks/FailedBanks.sqlite);
                         the first launch imports \(BankGenerator.defaultCount) made-up banks into it
          --delete ROW   delete the bank at ROW of the list (1 is the latest to close), with its details
          --sql          print each SQL statement to standard error as it runs
        """

    /// Runs the command line (without the program's name) and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        CommandRunner.run(name: "failedbanks", usage: usage) { try run(arguments) }
    }

    private static func run(_ arguments: [String]) throws {
        let options = try CommandLineArguments(arguments, valueOptions: ["--store", "--delete"], flagOptions: ["--sql", "--help"])
        if options.contains("--help") {
            print(usage)
            return
        }
        if let extra = options.operands.first {
            throw UsageError("unexpected argument '\(extra)'")
        }
        // Checked before the store is opened: a typo must not cost a first-launch import.
        let rowToDelete = try options.value(of: "--delete").map(parseRow)
        let location = StoreLocation.fromOption(options.value(of: "--store"), app: FailedBanksStore.name)
        let trace = options.contains("--sql") ? SQLTrace { writeToStandardError("sql: " + $0) } : nil
        let container = try FailedBanksStore.open(location, trace: trace)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let imported = try BankImport.importIfEmpty(into: context, banks: BankGenerator.banks())
            if imported > 0 {
                print("Imported \(imported) banks into \(location.displayPath)")
            }
            let list = try BankList(context: context)
            if let rowToDelete {
                try delete(row: rowToDelete, from: list)
            }
            show(list)
        }
    }

    /// A row number as the screen shows it (from 1), as an index from 0.
    private static func parseRow(_ text: String) throws(UsageError) -> Int {
        guard let row = Int(text), row >= 1 else {
            throw UsageError("--delete takes a row number from 1, not '\(text)'")
        }
        return row - 1
    }

    private static func delete(row: Int, from list: BankList) throws {
        let deletedID = row < list.count ? list.bank(atRow: row).objectID : nil
        let deleted = try list.deleteBank(atRow: row)
        print("Deleted row \(row + 1): \(deleted)")
        // The deleted bank cannot be read any more: its name is the one it was shown with.
        let label = { (id: ManagedObjectID) in
            id == deletedID ? deleted.name : (list.context.object(with: id) as? FailedBankInfo)?.name ?? "?"
        }
        for batch in list.table.batches {
            for line in TableStandIn.describe(batch, label: label) {
                print("  table: \(line)")
            }
        }
    }

    private static func show(_ list: BankList) {
        print("Failed banks: \(list.count), latest to close first")
        for (number, row) in list.firstScreen().enumerated() {
            print("\(String(number + 1).leftPadded(to: 3)). \(row)")
        }
        if list.count > BankList.screenRows {
            print("     … \(list.count - BankList.screenRows) more")
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
