import ArgumentParser
import ExampleSupport

extension CarValetTool {
    /// `carvalet add [MAKE [MODEL [YEAR]]]`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a car at the top (the year is 1908 unless given).")

        @OptionGroup var storage: StoreOptions<CarValetStore>

        @Argument(help: "The car's make; an empty one is not set.")
        var make: String?

        @Argument(help: "The car's model; quote one with spaces.")
        var model: String?

        @Argument(help: "The car's year, from 1.", transform: CarDetails.year(argument:))
        var year: Int16?

        func run() throws {
            try CarValetTool.perform(.add(CarDetails(make: make, model: model, year: year)), in: storage.openSession())
        }
    }

    /// `carvalet list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the cars, newest first.")

        @OptionGroup var storage: StoreOptions<CarValetStore>

        func run() throws {
            try CarValetTool.perform(.list, in: storage.openSession())
        }
    }

    /// `carvalet edit N MAKE [MODEL [YEAR]]`.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a car; what is not given stays as it is.")

        @OptionGroup var storage: StoreOptions<CarValetStore>

        @Argument(help: "The car's number, as `list` shows it.", transform: RowNumber.init(argument:))
        var row: RowNumber

        @Argument(help: "The car's new make.")
        var make: String

        @Argument(help: "The car's new model; quote one with spaces.")
        var model: String?

        @Argument(help: "The car's new year, from 1.", transform: CarDetails.year(argument:))
        var year: Int16?

        private var details: CarDetails { CarDetails(make: make, model: model, year: year) }

        func validate() throws {
            guard details.make != nil else {
                throw ValidationError("`edit` needs a make, and may take a model and a year, as in `edit \(row.number) Ford \"Model T\" 1927`")
            }
        }

        func run() throws {
            try CarValetTool.perform(.edit(row, details), in: storage.openSession())
        }
    }

    /// `carvalet delete N`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a car.")

        @OptionGroup var storage: StoreOptions<CarValetStore>

        @Argument(help: "The car's number, as `list` shows it.", transform: RowNumber.init(argument:))
        var row: RowNumber

        func run() throws {
            try CarValetTool.perform(.delete(row), in: storage.openSession())
        }
    }
}
