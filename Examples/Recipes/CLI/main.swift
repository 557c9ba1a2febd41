// Recipes (seed 000) on a terminal: `swift run --package-path Examples recipes --help`.
// RecipesApp holds the model, the list and the tool, so that the tests can run them in-process
// too.
import RecipesApp

RecipesTool.main()
