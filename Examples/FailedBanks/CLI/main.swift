// Failed Banks (seed 003) on a terminal: `swift run failedbanks --help`. FailedBanksApp holds the
// model, the list and the tool, so that the tests can run them in-process too.
import FailedBanksApp
import Foundation

exit(FailedBanksTool.run(CommandLine.arguments.dropFirst()))
