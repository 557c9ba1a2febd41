// Recipes (seed 000) on a terminal: `swift run recipes --help`.
import Foundation
import RecipesApp

exit(RecipesCommand.main(Array(CommandLine.arguments.dropFirst())))
