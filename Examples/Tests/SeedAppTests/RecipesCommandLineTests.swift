import Foundation
import Testing

/// `recipes` run as a user runs it: the first launch adds the samples, `list` shows sections with
/// the delegate's index titles, the next launch reads them from the "Recipes" cache, `add` and
/// `delete` show the controller's batch, and bad input is refused without losing anything.
@Suite struct RecipesCommandLineTests {
    private static let sampleList = """
        Recipes: 13 in 6 types
        [🥗] Appetizer
              Bruschetta
              Stuffed Mushrooms
        [🍳] Breakfast
              Buttermilk Pancakes
              Shakshuka
        [🍰] Dessert
              Apple Crumble
              Chocolate Mousse
              Lemon Posset
        [🍹] Drink
              Mint Lemonade
        [🍝] Entrée
              Chicken Tagine
              Mushroom Risotto
              Salmon en Papillote
        [🥣] Soup
              French Onion Soup
              Minestrone
        Index: 🥗 🍳 🍰 🍹 🍝 🥣

        """

    private func run(_ arguments: [String], in scratch: ScratchDirectory) throws -> ToolRun {
        try ToolProcess("recipes", in: scratch, store: scratch.file("Recipes.sqlite")).run(arguments)
    }

    /// The SELECTs that build the list: the grouped count of the sections and the ordered IDs,
    /// not the loads of rows being shown (`"_pk" IN (…)`).
    private func listQueries(_ run: ToolRun) -> [Substring] {
        run.standardError.split(separator: "\n").filter {
            $0.hasPrefix("sql: SELECT") && $0.contains("FROM \"Recipe\" t0") && !$0.contains("COUNT(*) FROM \"Recipe\" t0\"")
                && ($0.contains("GROUP BY") || $0.contains("ORDER BY"))
        }
    }

    @Test func theFirstLaunchListsTheSamplesInSectionsWithTheirIndexTitles() throws {
        let scratch = try ScratchDirectory()
        let first = try run([], in: scratch)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == "Added 13 sample recipes to \(scratch.file("Recipes.sqlite").path)\n" + Self.sampleList)
        let listed = try run(["list"], in: scratch)
        #expect(listed.standardOutput == Self.sampleList)
    }

    @Test func aRelaunchReadsTheSectionsFromTheRecipesCache() throws {
        let scratch = try ScratchDirectory()
        let first = try run(["--sql"], in: scratch)
        #expect(listQueries(first).count == 2, "\(listQueries(first))")
        let cache = scratch.file("cache/recipes/.CoreDataCaches/SectionInfoCaches/Recipes/sectionInfo")
        #expect(FileManager.default.fileExists(atPath: cache.path))

        let second = try run(["--sql"], in: scratch)
        #expect(second.status == 0)
        #expect(listQueries(second).isEmpty, "\(listQueries(second))")
        #expect(second.standardOutput == Self.sampleList)
    }

    @Test func addAndDeleteShowTheBatchAndLast() throws {
        let scratch = try ScratchDirectory()
        _ = try run([], in: scratch)
        let added = try run(["add", "Croque Monsieur", "Snack"], in: scratch)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(Array(added.lines.prefix(3)) == [
            "Added Croque Monsieur to Snack",
            "  table: insert section 5 \"Snack\"",
            "  table: insert row [5,0] Croque Monsieur",
        ])
        let deleted = try run(["delete", "mint lemonade"], in: scratch)
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(Array(deleted.lines.prefix(3)) == [
            "Deleted Mint Lemonade from Drink",
            "  table: delete section 3 \"Drink\"",
            "  table: delete row [3,0] Mint Lemonade",
        ])
        let listed = try run([], in: scratch)
        #expect(listed.lines.first == "Recipes: 13 in 6 types")
        #expect(listed.standardOutput.contains("[S] Snack\n      Croque Monsieur\n[🥣] Soup"))
        #expect(!listed.standardOutput.contains("Drink"))
        #expect(listed.lines.last == "Index: 🥗 🍳 🍰 🍝 S 🥣")
    }

    @Test(arguments: [
        (["add", "Toast"], Int32(64), "Missing expected argument '<type>'"),
        (["delete"], 64, "Missing expected argument '<name>'"),
        (["list", "all"], 64, "Unexpected argument 'all'"),
        (["cook", "Shakshuka"], 64, "2 unexpected arguments: 'cook', 'Shakshuka'"),
        (["--sql=yes"], 64, "The option '--sql' does not take any value, but 'yes' was specified."),
        (["add", "bruschetta", "Snack"], 1, "there is already a recipe named 'Bruschetta', in Appetizer"),
        (["add", "", "Snack"], 1, "a recipe needs a name"),
        (["delete", "Toast"], 1, "there is no recipe named 'Toast'"),
    ])
    func badInputIsRefusedAndLosesNothing(arguments: [String], status: Int32, message: String) throws {
        let scratch = try ScratchDirectory()
        _ = try run([], in: scratch)
        let refused = try run(arguments, in: scratch)
        refused.expectRefused(status: status, saying: message)
        #expect(refused.errorMessage == message)
        #expect(try run([], in: scratch).standardOutput == Self.sampleList)
    }
}
