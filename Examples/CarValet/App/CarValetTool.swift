public import ExampleSupport
import Foundation

/// The CarValet command-line tool: `carvalet add [MAKE [MODEL [YEAR]]]`, `carvalet list`,
/// `carvalet edit N MAKE [MODEL [YEAR]]`, `carvalet delete N`.
///
/// Each run opens the store, fetches the cars with a fetched results controller, runs one
/// command, and prints what the controller reported of the save (or, for `list`, its rows).
///
/// ```swift
/// exit(CarValetTool.run(CommandLine.arguments.dropFirst()))
/// ```
public enum CarValetTool: ExampleTool {
    /// The store of ``Car``s.
    public typealias Store = CarValetStore

    /// `carvalet`.
    public static let toolName = "carvalet"
    /// One command and its arguments.
    public static let synopsis = "COMMAND"
    /// Add, list, edit and delete.
    public static let commandSummary = """
          add [MAKE [MODEL [YEAR]]]   add a car at the top (the year is 1908 unless given)
          list                        show the cars, newest first
          edit N MAKE [MODEL [YEAR]]  change car N
          delete N                    delete car N
        """
    /// What N is.
    public static let usageNote = "N is the number `list` shows."

    /// Runs a command on a ``CarValet`` whose table prints each change; a ``CarValetError``
    /// reaches the user as its description, with status 1.
    public static func perform(_ command: CarValetCommand, in session: ToolSession) throws {
        let output = session.output
        let valet = try CarValet(context: session.context, table: CarTablePrinter(write: output.print), now: session.now)
        switch command {
        case .add(let details):
            try valet.addCar(make: details.make, model: details.model, year: details.year)
        case .edit(let row, let details):
            try valet.updateCar(at: IndexPath(row: row.index, section: 0), make: details.make, model: details.model,
                                year: details.year)
        case .delete(let row):
            try valet.deleteCar(at: IndexPath(row: row.index, section: 0))
        case .list:
            let rows = valet.rows
            if rows.isEmpty { output.print("No cars. Add one with `carvalet add`.") }
            rows.forEach { output.print($0.description) }
        }
    }
}
