public import ArgumentParser
public import ExampleSupport
import Foundation

/// The CarValet command-line tool: `carvalet add [MAKE [MODEL [YEAR]]]`, `carvalet list`,
/// `carvalet edit N MAKE [MODEL [YEAR]]`, `carvalet delete N`.
///
/// Each run opens the store, fetches the cars with a fetched results controller, runs one
/// command, and prints what the controller reported of the save (or, for `list`, its rows).
///
/// ```swift
/// CarValetTool.main()
/// ```
public struct CarValetTool: ParsableCommand {
    /// `carvalet` and its four commands.
    public static let configuration = CommandConfiguration(
        commandName: "carvalet",
        abstract: "CarValet's cars, newest first; each change prints what the fetched results controller reported.",
        subcommands: [Add.self, List.self, Edit.self, Delete.self]
    )

    /// `--store PATH` and `--sql`, which may also follow the command.
    @OptionGroup public var storage: StoreOptions<CarValetStore>

    /// A command line without a command yet.
    public init() {}

    /// Runs when no command is given: a usage error naming the commands.
    public func run() throws {
        throw ValidationError("no command given; the commands are add, list, edit and delete")
    }

    /// Runs a command on a ``CarValet`` whose table prints each change; a ``CarValetError``
    /// reaches the user as its description, with status 1.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - session: The store, a context on it, the output and the clock.
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
