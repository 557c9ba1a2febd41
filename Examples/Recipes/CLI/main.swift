// Recipes (seed 000) on a terminal: `swift run recipes --help`. RecipesApp holds the model, the
// list and the tool, so that the tests can run them in-process too.
import Foundation
import RecipesApp

exit(RecipesTool.run(CommandLine.arguments.dropFirst()))
