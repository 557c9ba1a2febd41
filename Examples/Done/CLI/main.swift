// The Done to-do list (seed 001) as a command-line tool; DoneApp holds the model, the list and
// the commands, so that the tests can run them in-process too.
import DoneApp

DoneTool.main()
