import ArgumentParser
import ExampleSupport
import Foundation

extension DoneTool {
    /// `done add TEXT`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a to-do item.")

        @OptionGroup var storage: StoreOptions<DoneStore>

        @Argument(help: "The item's text; the words are joined by spaces, so quoting is optional.")
        var text: [String]

        private var joinedText: String {
            text.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func validate() throws {
            guard !joinedText.isEmpty else { throw ValidationError("`add` needs the item's text, as in `add \"milk\"`") }
        }

        func run() throws {
            try DoneTool.perform(.add(joinedText), in: storage.openSession())
        }
    }

    /// `done list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the items, oldest first; ✓ marks done ones.")

        @OptionGroup var storage: StoreOptions<DoneStore>

        func run() throws {
            try DoneTool.perform(.list, in: storage.openSession())
        }
    }

    /// `done done N`, the seed's done button.
    struct Toggle: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark an item done, or not done again.")

        @OptionGroup var storage: StoreOptions<DoneStore>

        @Argument(help: "The item's number, as `list` shows it.", transform: RowNumber.init(argument:))
        var row: RowNumber

        func run() throws {
            try DoneTool.perform(.toggle(row), in: storage.openSession())
        }
    }

    /// `done delete N`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an item.")

        @OptionGroup var storage: StoreOptions<DoneStore>

        @Argument(help: "The item's number, as `list` shows it.", transform: RowNumber.init(argument:))
        var row: RowNumber

        func run() throws {
            try DoneTool.perform(.delete(row), in: storage.openSession())
        }
    }
}
