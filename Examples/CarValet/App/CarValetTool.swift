public import ExampleSupport
public import Foundation
public import OpenCoreData

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
    /// `carvalet`.
    public static let toolName = "carvalet"
    /// `CarValet`: the store is `<data directory>/CarValet/CarValet.sqlite` by default.
    public static let containerName = "CarValet"
    /// The ``Car``.
    public static let managedObjectClasses: [ManagedObject.Type] = [Car.self]
    /// Add, list, edit and delete.
    public static let commandSummary = """
          add [MAKE [MODEL [YEAR]]]   add a car at the top (the year is 1908 unless given)
          list                        show the cars, newest first
          edit N MAKE [MODEL [YEAR]]  change car N
          delete N                    delete car N
        """

    /// Reads a ``CarValetCommand``.
    public static func command(from words: [String]) throws(ToolError) -> CarValetCommand {
        try CarValetCommand(words: words)
    }

    /// Runs a command on a ``CarValet`` whose table prints each change; a ``CarValetError``
    /// reaches the user as its description, with status 1.
    public static func perform(_ command: CarValetCommand, in context: ManagedObjectContext, output: ToolOutput,
                               now: @escaping () -> Date) throws {
        let valet = try CarValet(context: context, table: CarTablePrinter(write: output.print), now: now)
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
