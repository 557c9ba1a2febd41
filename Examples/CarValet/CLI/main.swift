// CarValet's cars table (seed 002) as a command-line tool; CarValetApp holds the model, the table
// and the commands, so that the tests can run them in-process too.
import CarValetApp

CarValetTool.main()
